// A bound on the nesting of JSON values read from files. JSON.parse nests without limit, but
// JSON.stringify (hashes, sidecars, webview messages) and every recursive reader overflow the
// call stack a few thousand levels down; no trajectory, item or sidecar nests beyond a dozen.

import type { JsonKey } from './jsonScan';

export const MAX_JSON_DEPTH = 512;
/**
 * Each level of a JSON value opens a bracket and closes it: a JSON text shorter than this cannot
 * nest deeper than MAX_JSON_DEPTH, and need not be walked to learn it.
 */
export const SHORTEST_TOO_DEEP_TEXT = 2 * (MAX_JSON_DEPTH + 1);

interface Entry {
  value: object;
  depth: number;
  key?: JsonKey;
  parent?: Entry;
}

/**
 * The path to the first container nested deeper than `limit` levels (the top value is level 1);
 * undefined when the value stays within. Iterative, and costs one visit per object or array.
 */
export function tooDeepPath(value: unknown, limit = MAX_JSON_DEPTH): JsonKey[] | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const stack: Entry[] = [{ value, depth: 1 }];
  while (stack.length) {
    const entry = stack.pop() as Entry;
    if (entry.depth > limit) {
      const path: JsonKey[] = [];
      for (let e: Entry | undefined = entry; e?.key !== undefined; e = e.parent) path.push(e.key);
      return path.reverse();
    }
    const node = entry.value;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) {
        const child: unknown = node[i];
        if (child !== null && typeof child === 'object') stack.push({ value: child, depth: entry.depth + 1, key: i, parent: entry });
      }
    } else {
      for (const key of Object.keys(node)) {
        const child: unknown = (node as Record<string, unknown>)[key];
        if (child !== null && typeof child === 'object') stack.push({ value: child, depth: entry.depth + 1, key, parent: entry });
      }
    }
  }
  return undefined;
}

/** A path of hundreds of levels shortened for a one-line message. */
export function shortenedPath(path: readonly JsonKey[], keep = 6): { shown: JsonKey[]; omitted: number } {
  return path.length <= keep ? { shown: [...path], omitted: 0 } : { shown: path.slice(0, keep), omitted: path.length - keep };
}
