// Who gave a verdict: the judge identity that keys the judgment cache (docs/run-folders.md §4).
// Two judges differ when their provider, model or prompt version differ; a verdict of one is
// never served to another, so re-scoring with a second judge really asks it.
import { join } from 'node:path';
import { z } from 'zod';
import { InputError } from '../../input/inputError';

export interface JudgeIdentity {
  /** "openai", "anthropic"; absent for a model that does not say (tests, custom seams). */
  provider?: string;
  model?: string;
  /** The prompt file's id and version: "deepsearchqa-grader/v1". */
  prompt: string;
}

export const judgeIdentitySchema = z.strictObject({
  provider: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  prompt: z.string().min(1),
});

/** The manifest's `judge`: whose verdicts the cache lines without `judge_identity` are. `prompt` is for lines that do not name their judge. */
const manifestJudgeSchema = z.strictObject({
  provider: z.string().min(1),
  model: z.string().min(1),
  prompt: z.string().min(1).optional(),
});
export type ManifestJudge = z.infer<typeof manifestJudgeSchema>;

/** One string per identity (cache key, the agreement table's judge names): "openai:gpt-4.1:deepsearchqa-grader/v1". */
export function judgeIdentityKey(identity: JudgeIdentity): string {
  return `${identity.provider ?? '-'}:${identity.model ?? '-'}:${identity.prompt}`;
}

/** The prompt of a judge id as the judges write it ("llm/nugget-coverage/v1", "delegation:llm/deepsearchqa-grader/v1"). */
export function promptOfJudgeId(id: unknown): string | undefined {
  if (typeof id !== 'string') return undefined;
  return /(?:^|:)llm\/(.+\/v\d+)$/.exec(id)?.[1];
}

function issueText(error: z.ZodError): { path: string; message: string } {
  const issue = error.issues[0];
  return { path: ['$', ...issue.path.map(String)].join('.'), message: issue.message };
}

/** The run manifest's `judge` key, if any; a bad one is an error naming the manifest and the path. */
export function manifestJudgeOf(
  detection: { folder: string; manifest?: Record<string, unknown> },
  manifestFile = 'trajaudit.run.json',
): ManifestJudge | undefined {
  const value = detection.manifest?.judge;
  if (value === undefined) return undefined;
  const parsed = manifestJudgeSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const { path, message } = issueText(parsed.error);
  throw new InputError(
    join(detection.folder, manifestFile),
    `${message}; expected "judge" to be {provider, model, prompt?} (the judge of cached verdicts that do not record one)`,
    {
      path: path.replace(/^\$/, '$.judge'),
    },
  );
}

/**
 * The identity of a cache line: its `judge_identity`, else (an older line) the manifest's judge with
 * the prompt from the line's `judge` id or the manifest; undefined when nothing says who judged.
 */
export function identityOfLine(
  line: Record<string, unknown>,
  legacyJudge: ManifestJudge | undefined,
  where: { file: string; line: number },
): JudgeIdentity | undefined {
  if (line.judge_identity !== undefined) {
    const parsed = judgeIdentitySchema.safeParse(line.judge_identity);
    if (!parsed.success) {
      const { path, message } = issueText(parsed.error);
      throw new InputError(where.file, `${message}; expected "judge_identity" to be {provider?, model?, prompt}`, {
        line: where.line,
        path: path.replace(/^\$/, '$.judge_identity'),
      });
    }
    return parsed.data;
  }
  if (!legacyJudge) return undefined;
  const prompt = promptOfJudgeId(line.judge) ?? legacyJudge.prompt;
  return prompt ? { provider: legacyJudge.provider, model: legacyJudge.model, prompt } : undefined;
}
