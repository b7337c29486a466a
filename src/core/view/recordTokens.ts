import type { HeaderInfo } from '../../shared/protocol';
import type { Trajectory } from '../model/trajectory';
import { countMessageTokenPartsInSlices, tokenCount } from '../stats/tokens';

export interface RecordTokens {
  /** Per message: content + reasoning. */
  counts: number[];
  totals: NonNullable<HeaderInfo['tokens']>;
}

/**
 * The editor's token counts of one record, in slices (countMessageTokenPartsInSlices):
 * per-message counts so far go to `onProgress`; undefined when cancelled.
 */
export async function countRecordTokens(
  t: Trajectory,
  options: { onProgress?: (counts: number[]) => void; isCancelled?: () => boolean } = {},
): Promise<RecordTokens | undefined> {
  const parts = await countMessageTokenPartsInSlices(t.messages, options);
  if (!parts) return undefined;
  // Totals from the per-message counts: no second pass over the text.
  const totals = { total: 0, toolReturns: 0, reasoning: 0, predictedAnswer: tokenCount(t.predictedAnswer) };
  t.messages.forEach((m, i) => {
    totals.total += parts.content[i] + parts.reasoning[i];
    if (m.role === 'tool') totals.toolReturns += parts.content[i];
    if (m.role === 'assistant') totals.reasoning += parts.reasoning[i];
  });
  return { counts: parts.content.map((c, i) => c + parts.reasoning[i]), totals };
}
