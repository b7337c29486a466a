import { z } from 'zod';
import { checkSchema, type SourceText } from '../input/schemaCheck';
import type { GoldAnnotation, Message, Trajectory } from '../model/trajectory';
import { isObject, pickString, remainingFields, toInteger } from './fields';
import { finishTrajectory } from './finish';
import type { TrajectoryReader } from './registry';

const history = z.array(
  z.looseObject({
    content: z.union([z.string(), z.null()], { message: 'expected the message text as a string' }),
    role: z.string({ message: 'expected a role string' }),
    name: z.string().nullish(),
  }),
);

/**
 * `who-and-when`: only the task-giver (no `name`, role human/user) is a user message; every
 * other message is a decision step of its agent (`name`, else `role`), terminal agents included.
 */
export function loadWhoAndWhen(value: unknown, source: SourceText, id: string): Trajectory {
  const obj = isObject(value) ? value : {};
  const parsed = checkSchema(history, obj.history, { ...source, basePath: [...(source.basePath ?? []), 'history'] }, 'Who&When history');
  const messages = parsed.map((m, position): Message => {
    const taskGiver = !m.name && (m.role === 'human' || m.role === 'user');
    if (taskGiver) return { position, role: 'user', agent: m.role, content: m.content ?? '', toolCalls: [] };
    return { position, role: 'assistant', agent: m.name || m.role, content: m.content ?? '', toolCalls: [] };
  });
  const gold: GoldAnnotation = {};
  const step = toInteger(obj.mistake_step);
  // Who&When gives a step but no tolerance span; scorers treat a missing span as [step, step].
  if (step !== undefined) gold.criticalStep = step;
  else if (obj.mistake_step !== undefined && obj.mistake_step !== null) gold.invalidSteps = [{ path: ['mistake_step'], value: obj.mistake_step }];
  if (typeof obj.mistake_agent === 'string') gold.mistakeAgent = obj.mistake_agent;
  if (typeof obj.mistake_reason === 'string') gold.rationale = obj.mistake_reason;
  return finishTrajectory({
    format: 'who-and-when',
    id,
    messages,
    // Multi-agent logs end with chatter such as "TERMINATE"; Who&When records no predicted answer.
    inferPredictedAnswer: false,
    query: pickString(obj, ['question']),
    goldAnswer: pickString(obj, ['ground_truth']),
    gold: Object.keys(gold).length ? gold : undefined,
    metadata: remainingFields(obj, ['history']),
  });
}

const WHO_AND_WHEN_FIELDS = ['mistake_step', 'mistake_agent', 'mistake_reason', 'ground_truth', 'question', 'is_correct', 'is_corrected'];

export const whoAndWhenReader: TrajectoryReader = {
  id: 'who-and-when',
  label: 'Who&When',
  detect(value) {
    if (!isObject(value) || !Array.isArray(value.history)) return undefined;
    const named = WHO_AND_WHEN_FIELDS.filter((k) => k in value);
    if (!value.history.every((m) => isObject(m) && typeof m.role === 'string' && 'content' in m))
      return { score: 0.3, reason: 'an object with `history`', missing: ['history[] entries with `role` and `content`'] };
    return {
      score: named.length ? 0.9 : 0.6,
      reason:
        'an object with `history`' +
        (named.length
          ? ` and ${named
              .slice(0, 3)
              .map((k) => '`' + k + '`')
              .join(', ')} (Who&When)`
          : ''),
    };
  },
  load: loadWhoAndWhen,
};
