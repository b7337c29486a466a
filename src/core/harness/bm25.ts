// BM25 retrieval over an item's closed document pool (Delegation Setting II), with
// wink-bm25-text-search (Okapi BM25, k1 = 1.2, b = 0.75). Tokens: ./text.ts tokenize() —
// words and numbers, CJK character unigrams + bigrams — so English and Chinese pools both work.
import bm25 from 'wink-bm25-text-search';
import { tokenize } from './text';

export interface Bm25Doc {
  key: string;
  text: string;
}

// wink needs ids that keep insertion order in an object (no integer-like keys) and at least
// three documents before it consolidates; smaller pools get empty padding documents, which
// match nothing (they change N in the idf, not the ranking of a two-document pool).
const PAD = '\u0000pad';

export class Bm25Index {
  readonly #engine = bm25();
  readonly #order = new Map<string, number>();

  constructor(docs: readonly Bm25Doc[]) {
    this.#engine.defineConfig({ fldWeights: { text: 1 }, bm25Params: { k1: 1.2, b: 0.75, k: 1 } });
    this.#engine.definePrepTasks([(text: string) => tokenize(text)]);
    docs.forEach((d, i) => {
      if (this.#order.has(d.key)) throw new Error(`duplicate document key ${d.key}`);
      this.#order.set(d.key, i);
      this.#engine.addDoc({ text: d.text }, `k:${d.key}`);
    });
    for (let i = docs.length; i < 3; i++) this.#engine.addDoc({ text: '' }, `${PAD}${i}`);
    this.#engine.consolidate(6);
  }

  /** The top `k` keys by BM25 score (ties: pool order); documents sharing no token with the query are never returned. */
  search(query: string, k: number): { key: string; score: number }[] {
    if (k <= 0) return [];
    const hits = this.#engine
      .search(query, this.#order.size + 3)
      .filter(([id]) => id.startsWith('k:'))
      .map(([id, score]) => ({ key: id.slice(2), score }));
    hits.sort((a, b) => b.score - a.score || (this.#order.get(a.key) ?? 0) - (this.#order.get(b.key) ?? 0));
    return hits.slice(0, k);
  }
}
