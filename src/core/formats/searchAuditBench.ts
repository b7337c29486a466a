import type { SourceText } from '../input/schemaCheck';
import { checkSchema } from '../input/schemaCheck';
import type { Trajectory } from '../model/trajectory';
import { extractGold, isObject, pickString, remainingFields } from './fields';
import { finishTrajectory } from './finish';
import type { TrajectoryReader } from './registry';
import { normalizeOpenAiMessages, openAiMessagesSchema } from './openaiChat';

/** `searchauditbench`: `{query, predicted_answer, trajectory: [openai-chat messages], gold…}`. */
export function loadSearchAuditBench(value: unknown, source: SourceText, id: string): Trajectory {
  const obj = isObject(value) ? value : {};
  const parsed = checkSchema(
    openAiMessagesSchema,
    obj.trajectory,
    { ...source, basePath: [...(source.basePath ?? []), 'trajectory'] },
    'a SearchAuditBench trajectory (OpenAI chat messages)',
  );
  return finishTrajectory({
    format: 'searchauditbench',
    id,
    messages: normalizeOpenAiMessages(parsed),
    query: pickString(obj, ['query', 'question']),
    predictedAnswer: pickString(obj, ['predicted_answer', 'prediction']),
    goldAnswer: pickString(obj, ['gold_answer', 'answer', 'ground_truth']),
    gold: extractGold(obj),
    metadata: remainingFields(obj, ['trajectory']),
  });
}

export const searchAuditBenchReader: TrajectoryReader = {
  id: 'searchauditbench',
  label: 'SearchAuditBench instance',
  detect(value) {
    if (!isObject(value) || !Array.isArray(value.trajectory)) return undefined;
    const steps = value.trajectory;
    if (!steps.every((m) => isObject(m) && typeof m.role === 'string'))
      return { score: 0.3, reason: 'an object with `trajectory`', missing: ['trajectory[] as chat messages with `role`'] };
    const hasRunFields = 'query' in value || 'predicted_answer' in value || 'question' in value;
    return {
      score: hasRunFields ? 0.9 : 0.6,
      reason: 'an object with `trajectory`' + (hasRunFields ? ' and `query` (SearchAuditBench instance)' : ' of chat messages'),
    };
  },
  load: loadSearchAuditBench,
};
