import type { TrajectoryFormat } from '../model/trajectory';
import { looksAnthropic } from './anthropic';
import { isObject } from './fields';
import { looksTongyi } from './tongyi';

export type ItemKind = 'delegation-item' | 'deepsearchqa' | 'clarify-instance' | 'scenario-set';
export type DocumentKind = TrajectoryFormat | ItemKind | 'audit-sidecar' | 'run-manifest';

export interface Detection {
  kind: DocumentKind;
  /** Why this kind was chosen, for the user ("object with `history` and `mistake_step`"). */
  reason: string;
}

function isMessageLike(value: unknown): boolean {
  return isObject(value) && typeof value.role === 'string';
}

/** Content-based detection of one JSON value (never by file name). */
export function detectJsonValue(value: unknown): Detection | undefined {
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every(isMessageLike)) return { kind: 'openai-chat', reason: 'a JSON array of chat messages' };
    return undefined;
  }
  if (!isObject(value)) return undefined;
  if (value.schema === 'trajaudit.audit/v1' || (typeof value.schema === 'string' && value.schema.startsWith('trajaudit.audit/'))) {
    return { kind: 'audit-sidecar', reason: `"schema": "${value.schema}"` };
  }
  if (Array.isArray(value.history)) return { kind: 'who-and-when', reason: 'an object with `history` (Who&When)' };
  if (Array.isArray(value.trajectory)) return { kind: 'searchauditbench', reason: 'an object with `trajectory` and `query` (SearchAuditBench instance)' };
  if (Array.isArray(value.messages)) {
    if (looksTongyi(value))
      return { kind: 'tongyi-react', reason: 'an object with `messages` whose text carries Tongyi <think>/<tool_call>/<tool_response> tags' };
    if (looksAnthropic(value)) return { kind: 'anthropic', reason: 'an object with `messages` made of Anthropic content blocks' };
    return { kind: 'openai-chat', reason: 'an object with OpenAI-style `messages`' };
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
  return ['openai-chat', 'anthropic', 'tongyi-react', 'searchauditbench', 'who-and-when'].includes(kind);
}
