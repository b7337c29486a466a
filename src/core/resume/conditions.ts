// The interventions of seed 002 §5.4 as resume payloads. Every condition keeps the same prefix
// (the source messages before the audit's predicted critical step, as export-repairs cuts it),
// so the conditions differ only in the user message appended after it:
//   repair — the audit's repair directives (export-repairs --format resume, unchanged);
//   retry  — nothing: the agent re-takes the critical decision unguided;
//   hint   — a fixed generic hint (prompts/resume/v1/generic-hint.md), which keeps the audit's
//            localization but strips its diagnosis.
import { loadPrompt } from '../audit/prompts';
import { resumePayload, type RepairSource } from '../export/repairs';

export const RESUME_CONDITIONS = ['repair', 'retry', 'hint'] as const;
export type ResumeCondition = (typeof RESUME_CONDITIONS)[number];

/** The version of the generic hint, recorded in the run manifest. */
export const GENERIC_HINT_VERSION = 'resume/v1/generic-hint';

export function genericHint(): string {
  return loadPrompt(`${GENERIC_HINT_VERSION}.md`);
}

export function isResumeCondition(value: string): value is ResumeCondition {
  return (RESUME_CONDITIONS as readonly string[]).includes(value);
}

/**
 * The payload the agent resumes from under `condition`: export-repairs' resume payload with its
 * last message (the repair) kept, dropped, or replaced by the hint; `trajaudit.condition` says which.
 */
export function conditionPayload(source: RepairSource, condition: ResumeCondition, hint: string): { format: string; payload: Record<string, unknown> } {
  const { format, payload } = resumePayload(source) as { format: string; payload: Record<string, unknown> & { messages: unknown[]; trajaudit: object } };
  const prefix = payload.messages.slice(0, -1);
  const messages = condition === 'repair' ? payload.messages : condition === 'retry' ? prefix : [...prefix, { role: 'user', content: hint }];
  return { format, payload: { ...payload, trajaudit: { ...payload.trajaudit, condition }, messages } };
}
