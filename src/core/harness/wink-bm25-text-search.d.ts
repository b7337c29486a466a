// Types for wink-bm25-text-search 3.x (the package ships none); only what the harness uses.
declare module 'wink-bm25-text-search' {
  interface WinkBm25Engine {
    defineConfig(config: { fldWeights: Record<string, number>; bm25Params?: { k1?: number; b?: number; k?: number }; ovFldNames?: string[] }): boolean;
    /** Typed for the one task the harness gives: the field text to its tokens. */
    definePrepTasks(tasks: Array<(input: string) => string[]>, field?: string): number;
    addDoc(doc: Record<string, string>, id: string | number): number;
    consolidate(fp?: number): boolean;
    /** [[id, score], …] by descending score; only documents sharing a token with the query. */
    search(text: string, limit?: number): Array<[string, number]>;
  }
  function bm25(): WinkBm25Engine;
  export = bm25;
}
