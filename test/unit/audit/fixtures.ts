import type { MockReply, MockRequest } from '../../mock/mockModelServer';
import { trajectoryOf } from '../helpers';

const call = (id: string, name: string, args: unknown) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });

/** A small failed run with gold fields that must never reach a prompt. */
export const GOLD_ANSWER = 'GOLD-ANSWER-Lindqvist-7731';
export const GOLD_RATIONALE = 'GOLD-RATIONALE-never-in-a-prompt';
export const FAR_TOOL_TEXT = 'EARLY-RESULT-ONLY-IN-MESSAGE-2';

export function auditedTrajectory() {
  const messages: unknown[] = [
    { role: 'system', content: 'You are a search agent.' },
    { role: 'user', content: 'Which Swedish architect designed the 1912 Stockholm stadium clock tower?' },
    { role: 'assistant', content: '', reasoning_content: 'Start broad.', tool_calls: [call('c0', 'search', { query: ['Stockholm 1912 stadium architect'] })] },
    { role: 'tool', tool_call_id: 'c0', content: `${FAR_TOOL_TEXT} Torben Grut designed the Stockholm Olympic Stadium.` },
  ];
  for (let i = 1; i <= 8; i++) {
    messages.push({
      role: 'assistant',
      content: '',
      reasoning_content: `Step ${i}: keep checking.`,
      tool_calls: [call(`c${i}`, i % 2 ? 'visit' : 'search', i % 2 ? { url: `https://example.org/${i}`, goal: 'architect' } : { query: [`clock tower ${i}`] })],
    });
    messages.push({ role: 'tool', tool_call_id: `c${i}`, content: `Result ${i}: the clock tower is mentioned in passing.` });
  }
  messages.push({ role: 'assistant', content: 'Erik Lallerstedt' });
  return trajectoryOf({
    query: 'Which Swedish architect designed the 1912 Stockholm stadium clock tower?',
    predicted_answer: 'Erik Lallerstedt',
    gold_answer: GOLD_ANSWER,
    critical_step: 6,
    tolerance_span: [6, 8],
    root_cause: 'candidate_mismanagement',
    rationale: GOLD_RATIONALE,
    trajectory: messages,
  });
}

export const KIND = {
  holistic: 'holistic audit',
  backward: 'backward constraint audit',
  forward: 'forward timeline audit',
  adjudicator: 'evidence-grounded adjudication',
  repair: 'You write repair directives',
} as const;

export function kindOf(request: MockRequest): keyof typeof KIND | 'other' {
  if (request.system.includes(KIND.repair)) return 'repair';
  for (const key of ['holistic', 'backward', 'forward', 'adjudicator'] as const) if (request.userText.includes(KIND[key])) return key;
  return 'other';
}

/** Scripted SearchAuditor replies; the adjudicator proposes a tool message (7) to test the mapping. */
export function searchAuditorScript(overrides: Partial<Record<keyof typeof KIND, MockReply>> = {}, delayMs = 150) {
  return (request: MockRequest): MockReply => {
    const kind = kindOf(request);
    if (kind !== 'other' && overrides[kind]) return overrides[kind]!;
    switch (kind) {
      case 'holistic':
        return {
          delayMs,
          text: JSON.stringify({
            critical_step: 20,
            root_cause: 'Unsupported Answer',
            rationale: 'The final answer names nobody the pages mention [20].',
            notes: '',
          }),
        };
      case 'backward':
        return {
          delayMs,
          text: JSON.stringify({
            critical_step: 6,
            root_cause: 'constraint_neglect',
            rationale: 'The 1912 constraint was not checked at [6].',
            notes: 'year 1912: unverified → [6]',
          }),
        };
      case 'forward':
        return {
          delayMs,
          text:
            '```json\n' +
            JSON.stringify({
              critical_step: 8,
              root_cause: 'candidate_mismanagement',
              rationale: 'At [8] the agent drops Grut.',
              notes: 'plan: find architect; [8] departs',
            }) +
            '\n```',
        };
      case 'adjudicator':
        return {
          text: JSON.stringify({
            critical_step: 7,
            root_cause: 'candidate_mismanagement',
            rationale: 'Grut surfaced at [3] and was dropped after [7].',
            cited_steps: [3, 7, 8],
          }),
        };
      case 'repair':
        return {
          text: JSON.stringify({
            directives: [
              'At step 6, keep Torben Grut as a candidate and open the stadium history page before dropping him.',
              'Check each candidate against the 1912 date and the clock-tower role.',
            ],
          }),
        };
      default:
        return {
          text: JSON.stringify({
            critical_step: 6,
            root_cause: 'candidate_mismanagement',
            rationale: 'baseline',
            directives: ['Compare candidates at step 6.'],
            decisive: true,
            half: 'first',
          }),
        };
    }
  };
}
