// Seeded randomness: the one pseudo-random generator of the product, so bootstrap intervals and
// the harnesses' document orders are the same on every run with the same seed (a run folder can
// be reproduced from its manifest's seed). Changing a sequence here changes existing results:
// test/unit/random.test.ts pins them.

/** Mulberry32: a small, fast 32-bit PRNG. Returns a stream of numbers in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a 32-bit hash of a string (UTF-16 code units), the seed of a keyed stream. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * A stream keyed by its parts, e.g. (seed, item id, purpose): each purpose gets its own stream,
 * so adding a use of randomness does not shift the others.
 */
export function seededRandom(...parts: (string | number)[]): () => number {
  return mulberry32(hash32(parts.map(String).join('\u0000')));
}

/** Fisher–Yates shuffle of a copy, drawing from `random`. */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
