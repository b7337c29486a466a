import { TRAJECTORY_FORMATS, type TrajectoryFormat } from '../model/trajectory';
import { InputError } from '../input/inputError';
import type { SourceText } from '../input/schemaCheck';
import { isObject } from './fields';
import { decide, rankFormats, type RankedMatch } from './registry';

export type ItemKind = 'delegation-item' | 'deepsearchqa' | 'clarify-instance' | 'scenario-set';
export type DocumentKind = TrajectoryFormat | ItemKind | 'audit-sidecar' | 'run-manifest';

export interface Detection {
  kind: DocumentKind;
  /** Why this kind was chosen, for the user ("object with `history` and `mistake_step`"). */
  reason: string;
}

/** Content-based detection of one JSON value (never by file name). */
export function detectJsonValue(value: unknown): Detection | undefined {
  const verdict = decide(rankFormats(value));
  if (verdict.kind === 'reader') return { kind: verdict.match.reader.id, reason: verdict.match.reason };
  if (!isObject(value)) return undefined;
  if (value.schema === 'trajaudit.audit/v1' || (typeof value.schema === 'string' && value.schema.startsWith('trajaudit.audit/'))) {
    return { kind: 'audit-sidecar', reason: `"schema": "${value.schema}"` };
  }
  if (Array.isArray(value.scenarios) && isObject(value.meta)) return { kind: 'scenario-set', reason: 'an object with `meta` and `scenarios` (scenario set)' };
  if ('golden_docs' in value || 'distractor_docs' in value) return { kind: 'delegation-item', reason: 'an object with `golden_docs` (Delegation item)' };
  if ('blurred_query' in value) return { kind: 'clarify-instance', reason: 'an object with `blurred_query` (Clarify-Then-Search instance)' };
  if ('problem' in value && ('answer_type' in value || 'problem_category' in value))
    return { kind: 'deepsearchqa', reason: 'a row with `problem` and `answer_type` (DeepSearchQA)' };
  if (typeof value.kind === 'string' && ['audit', 'deepsearchqa', 'nuggets', 'scenarios', 'delegation'].includes(value.kind)) {
    return { kind: 'run-manifest', reason: `an object with "kind": "${value.kind}" (run-folder manifest)` };
  }
  return undefined;
}

export const EXPECTED_DOCUMENT =
  'expected a trajectory (an array of chat messages, or an object with `messages`, `trajectory` or `history`), a benchmark item, an audit sidecar or a run manifest';

export function isTrajectoryFormat(kind: DocumentKind): kind is TrajectoryFormat {
  return (TRAJECTORY_FORMATS as readonly string[]).includes(kind);
}

function keysOf(value: unknown): string {
  if (Array.isArray(value)) {
    const first = value.find(isObject);
    return first ? `an array whose first object has keys ${Object.keys(first).slice(0, 8).join(', ') || '(none)'}` : 'an array';
  }
  if (isObject(value)) return `an object with keys ${Object.keys(value).slice(0, 8).join(', ') || '(none)'}`;
  return value === null ? 'null' : `a ${typeof value}`;
}

function named(match: RankedMatch): string {
  return `${match.reader.label} (\`${match.reader.id}\`)`;
}

/**
 * The error for a value `detectJsonValue` returned undefined for. When one format is near, its
 * reader's own schema error is the most exact message (the JSON path and line:column of the
 * first wrong field); otherwise `explainUndetected`.
 */
export function undetectedError(value: unknown, source: SourceText, where: { line?: number; column?: number; path?: string }): InputError {
  const verdict = decide(rankFormats(value));
  if (verdict.kind === 'incomplete') {
    try {
      verdict.match.reader.load(value, source, '0');
    } catch (error) {
      if (error instanceof InputError) return error;
    }
  }
  return new InputError(source.file, explainUndetected(value), where);
}

/**
 * Why a value was not read (for a value `detectJsonValue` returned undefined for): the keys seen,
 * and the nearest format with what it lacks, or the two formats that fit equally.
 */
export function explainUndetected(value: unknown): string {
  const seen = keysOf(value);
  const verdict = decide(rankFormats(value));
  switch (verdict.kind) {
    case 'ambiguous': {
      const [a, b] = verdict.matches;
      return `${seen} fits two formats equally: ${named(a)}, ${a.reason}; and ${named(b)}, ${b.reason}; choose one with --format ${a.reader.id} or --format ${b.reader.id}`;
    }
    case 'incomplete':
      return `${seen} looks like ${named(verdict.match)} (${verdict.match.reason}) but lacks ${(verdict.match.missing ?? ['its key fields']).join(', ')}`;
    default:
      return `unrecognized content (${seen}); ${EXPECTED_DOCUMENT}`;
  }
}
