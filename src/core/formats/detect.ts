import { TRAJECTORY_FORMATS, type TrajectoryFormat } from '../model/trajectory';
import { InputError } from '../input/inputError';
import type { SourceText } from '../input/schemaCheck';
import { isObject } from './fields';
import { decide, rankFormats, rankLineFormats, TRAJECTORY_READERS, type RankedMatch, type Verdict } from './registry';

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

function keyList(obj: Record<string, unknown>): string {
  const keys = Object.keys(obj);
  if (keys.length === 0) return '(none)';
  return keys.slice(0, 10).join(', ') + (keys.length > 10 ? `, … (${keys.length} keys)` : '');
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** What a value is, for messages: "an object with keys a, b", "an array of 3 strings". */
export function describeKeys(value: unknown): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return 'an empty array';
    const first = value.find(isObject);
    if (first) return `an array of ${value.length} whose first object has keys ${keyList(first)}`;
    const kinds = [...new Set(value.map(kindOf))];
    return `an array of ${value.length} ${kinds.length === 1 ? `${kinds[0]}s` : `values (${kinds.join(', ')})`}`;
  }
  if (isObject(value)) return `an object with keys ${keyList(value)}`;
  return value === null ? 'null' : `a ${typeof value}`;
}

/** What the lines of a JSONL file are: the first object's keys and, when lines carry one, their `type`s. */
function describeLines(values: unknown[]): string {
  const first = values.find(isObject);
  if (!first) return `${values.length} JSONL lines, none an object`;
  const types = [
    ...new Set(
      values
        .filter(isObject)
        .map((v) => v.type)
        .filter((t): t is string => typeof t === 'string'),
    ),
  ];
  return `${values.length} JSONL lines whose first object has keys ${keyList(first)}${types.length ? ` (line types ${types.slice(0, 6).join(', ')})` : ''}`;
}

function named(match: RankedMatch): string {
  return `${match.reader.label} (\`${match.reader.id}\`)`;
}

/**
 * The error for a value `detectJsonValue` returned undefined for. When one format is near, its
 * reader's own schema error is the most exact message (the JSON path and line:column of the
 * first wrong field), with the format named; otherwise `explainUndetected`.
 */
export function undetectedError(value: unknown, source: SourceText, where: { line?: number; column?: number; path?: string }): InputError {
  const verdict = decide(rankFormats(value));
  if (verdict.kind === 'incomplete') {
    try {
      verdict.match.reader.load(value, source, '0');
    } catch (error) {
      if (error instanceof InputError) {
        const lacking = verdict.match.missing?.length ? `; it lacks ${verdict.match.missing.join(', ')}` : '';
        const detail = error.detail.includes(verdict.match.reader.id)
          ? error.detail
          : `${error.detail}; read as ${named(verdict.match)}, since ${verdict.match.reason}${lacking}`;
        return new InputError(error.file, detail, error.where);
      }
    }
  }
  return new InputError(source.file, explainUndetected(value), where);
}

function explainVerdict(verdict: Verdict, seen: string): string {
  switch (verdict.kind) {
    case 'ambiguous': {
      const [a, b] = verdict.matches;
      return `${seen} fits two formats equally: ${named(a)}, ${a.reason}; and ${named(b)}, ${b.reason}; choose one with --format ${a.reader.id} or --format ${b.reader.id}`;
    }
    case 'incomplete':
      return `${seen} looks like ${named(verdict.match)} (${verdict.match.reason}) but lacks ${(verdict.match.missing ?? ['its key fields']).join(', ')}`;
    case 'reader':
      return `${seen} is ${named(verdict.match)} (${verdict.match.reason})`;
    default:
      return `unrecognized content (${seen}); ${EXPECTED_DOCUMENT}; the trajectory formats are ${TRAJECTORY_READERS.map((r) => r.id).join(', ')} (force one with --format ID)`;
  }
}

/**
 * Why a value was not read (for a value `detectJsonValue` returned undefined for): the keys seen,
 * and the nearest format with what it lacks, or the two formats that fit equally.
 */
export function explainUndetected(value: unknown): string {
  return explainVerdict(decide(rankFormats(value)), describeKeys(value));
}

/** Why the lines of a JSONL file were not read as one session format: the two that tie, or the near one and what it lacks. */
export function explainLinesUndetected(values: unknown[]): string {
  return explainVerdict(decide(rankLineFormats(values)), describeLines(values));
}
