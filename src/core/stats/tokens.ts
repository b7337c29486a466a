import { countTokens, decode, encode } from 'gpt-tokenizer/encoding/o200k_base';

// Trajectory text may quote special tokens such as "<|endoftext|>": count them as plain text.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>(), allowedSpecial: new Set<string>() };

/** o200k_base token count (formats.md §1). */
export function tokenCount(text: string | undefined): number {
  if (!text) return 0;
  return countTokens(text, PLAIN_TEXT);
}

/**
 * Keeps the head and tail of a text within `budget` tokens, with a marker saying how much was cut.
 * Deterministic, so the same trajectory always yields the same evidence.
 */
export function truncateToTokens(text: string, budget: number): { text: string; cutTokens: number } {
  const tokens = encode(text, PLAIN_TEXT);
  if (tokens.length <= budget) return { text, cutTokens: 0 };
  const keep = Math.max(0, budget - 16);
  const head = Math.ceil(keep * 0.6);
  const tail = keep - head;
  const cut = tokens.length - head - tail;
  const marker = `\n[… ${cut} tokens cut …]\n`;
  return { text: decode(tokens.slice(0, head)) + marker + (tail > 0 ? decode(tokens.slice(tokens.length - tail)) : ''), cutTokens: cut };
}

/**
 * Per-message token counts (content + reasoning), computed in slices that yield to the event
 * loop so a 5,000-message / 120 MB trajectory never blocks the extension host; `onProgress`
 * receives the counts so far. Resolves undefined when cancelled.
 */
export async function countMessageTokensInSlices(
  messages: readonly { content: string; reasoning?: string }[],
  options: { sliceMs?: number; onProgress?: (counts: number[]) => void; isCancelled?: () => boolean } = {},
): Promise<number[] | undefined> {
  const sliceMs = options.sliceMs ?? 50;
  const counts: number[] = [];
  let lastReport = Date.now();
  while (counts.length < messages.length) {
    const sliceStart = Date.now();
    while (counts.length < messages.length && Date.now() - sliceStart < sliceMs) {
      const m = messages[counts.length];
      counts.push(tokenCount(m.content) + tokenCount(m.reasoning));
    }
    if (options.isCancelled?.()) return undefined;
    if (options.onProgress && Date.now() - lastReport > 500 && counts.length < messages.length) {
      options.onProgress(counts.slice());
      lastReport = Date.now();
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  return counts;
}
