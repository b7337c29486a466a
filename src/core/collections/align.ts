// Two trajectories of the same query aligned by decision step (docs/cli.md, `trajaudit compare`).
//
// Two steps are similar when they call the same tools, in the same order, and the word tokens of
// their arguments (every string and number inside them, lower-cased, split on anything that is not
// a letter or a digit) have a Jaccard similarity of at least 0.5; a step that calls no tool is
// similar to another such step when the word tokens of its text do. The alignment is the
// order-preserving pairing with the most similar pairs (longest-common-subsequence dynamic
// programming); every other step is paired with null.
import type { Message, Trajectory } from '../model/trajectory';

export const SIMILARITY_THRESHOLD = 0.5;

export type AlignedPair = [number | null, number | null];

export interface Alignment {
  pairs: AlignedPair[];
  /** Where the runs part: the first unpaired steps of each side; null when every step is paired. */
  firstDivergence: { a: number | null; b: number | null } | null;
}

function leafTexts(value: unknown, out: string[]): void {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number' || typeof value === 'boolean') out.push(String(value));
  else if (Array.isArray(value)) for (const v of value) leafTexts(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) leafTexts(v, out);
}

export function wordTokens(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const token of a) if (b.has(token)) shared++;
  return shared / (a.size + b.size - shared);
}

interface StepSignature {
  tools: string;
  tokens: Set<string>;
}

function signatureOf(message: Message): StepSignature {
  if (message.toolCalls.length === 0) return { tools: '', tokens: wordTokens(message.content) };
  const texts: string[] = [];
  for (const call of message.toolCalls) {
    if (call.argumentsValid && call.arguments !== undefined) leafTexts(call.arguments, texts);
    else texts.push(call.rawArguments);
  }
  return { tools: message.toolCalls.map((c) => c.name).join('\u0000'), tokens: wordTokens(texts.join(' ')) };
}

function similar(a: StepSignature, b: StepSignature): boolean {
  return a.tools === b.tools && jaccard(a.tokens, b.tokens) >= SIMILARITY_THRESHOLD;
}

/** Aligns the decision steps of two trajectories; positions are message positions. */
export function alignDecisionSteps(a: Trajectory, b: Trajectory): Alignment {
  const stepsA = a.decisionSteps;
  const stepsB = b.decisionSteps;
  const sigA = stepsA.map((p) => signatureOf(a.messages[p]));
  const sigB = stepsB.map((p) => signatureOf(b.messages[p]));
  const n = stepsA.length;
  const m = stepsB.length;
  // best[i][j]: the most similar pairs between the suffixes a[i..] and b[j..].
  const best = Array.from({ length: n + 1 }, () => new Int32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      best[i][j] = similar(sigA[i], sigB[j]) ? best[i + 1][j + 1] + 1 : Math.max(best[i + 1][j], best[i][j + 1]);
    }
  }
  const pairs: AlignedPair[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && similar(sigA[i], sigB[j]) && best[i][j] === best[i + 1][j + 1] + 1) pairs.push([stepsA[i++], stepsB[j++]]);
    // Ties put a's unpaired step first, so a run of gaps reads a's steps then b's.
    else if (i < n && (j === m || best[i + 1][j] >= best[i][j + 1])) pairs.push([stepsA[i++], null]);
    else pairs.push([null, stepsB[j++]]);
  }
  return { pairs, firstDivergence: divergenceOf(pairs) };
}

function divergenceOf(pairs: readonly AlignedPair[]): Alignment['firstDivergence'] {
  const start = pairs.findIndex(([x, y]) => x === null || y === null);
  if (start === -1) return null;
  let a: number | null = null;
  let b: number | null = null;
  for (let k = start; k < pairs.length && (pairs[k][0] === null || pairs[k][1] === null); k++) {
    a ??= pairs[k][0];
    b ??= pairs[k][1];
  }
  return { a, b };
}
