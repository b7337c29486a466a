import { countTokens, decode, encode } from 'gpt-tokenizer/encoding/o200k_base';

// Trajectory text may quote special tokens such as "<|endoftext|>": count them as plain text.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>(), allowedSpecial: new Set<string>() };

/** o200k_base token count (docs/formats.md §6). */
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
 * Per-message token counts of content and of reasoning, computed in short slices (default 10 ms)
 * separated by a macrotask yield (setTimeout), so a 5,000-message / 120 MB trajectory never
 * blocks the extension host: commands, webview messages and I/O run between slices.
 * `onProgress` receives the per-message totals so far (every ~500 ms). Resolves undefined when
 * cancelled.
 */
export async function countMessageTokenPartsInSlices(
  messages: readonly { content: string; reasoning?: string }[],
  options: { sliceMs?: number; onProgress?: (counts: number[]) => void; isCancelled?: () => boolean } = {},
): Promise<{ content: number[]; reasoning: number[] } | undefined> {
  const sliceMs = options.sliceMs ?? 10;
  const content: number[] = [];
  const reasoning: number[] = [];
  let lastReport = Date.now();
  while (content.length < messages.length) {
    const sliceStart = Date.now();
    while (content.length < messages.length && Date.now() - sliceStart < sliceMs) {
      const m = messages[content.length];
      content.push(tokenCount(m.content));
      reasoning.push(tokenCount(m.reasoning));
    }
    if (options.isCancelled?.()) return undefined;
    if (options.onProgress && Date.now() - lastReport > 500 && content.length < messages.length) {
      options.onProgress(content.map((c, i) => c + reasoning[i]));
      lastReport = Date.now();
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return { content, reasoning };
}

/** Per-message token counts (content + reasoning); see countMessageTokenPartsInSlices. */
export async function countMessageTokensInSlices(
  messages: readonly { content: string; reasoning?: string }[],
  options: { sliceMs?: number; onProgress?: (counts: number[]) => void; isCancelled?: () => boolean } = {},
): Promise<number[] | undefined> {
  const parts = await countMessageTokenPartsInSlices(messages, { sliceMs: 50, ...options });
  return parts && parts.content.map((c, i) => c + parts.reasoning[i]);
}
