// Where a pre-check finding is in an item file: line:column ranges (1-based, UTF-16 columns) for a
// JSON path — and, inside a string, for a span of the decoded string — in a JSON document, a JSON
// array of items, or a JSONL line. Built on locateJsonPath (src/core/input/jsonText.ts) and
// jsonc-parser's tree for the end of the range.
import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';
import { locateJsonPath, type JsonPath } from '../../input/jsonText';
import { lineColumnAt } from '../../input/readText';

export interface TextRange {
  start: { line: number; column: number };
  end: { line: number; column: number };
}

/** Offsets in a JSON string literal's raw text (between the quotes) of each decoded UTF-16 index. */
function rawOffsets(raw: string): number[] {
  const map: number[] = [];
  let i = 0;
  while (i < raw.length) {
    map.push(i);
    if (raw[i] === '\\') {
      if (raw[i + 1] === 'u') i += 6;
      else i += 2;
    } else i += 1;
  }
  map.push(raw.length);
  return map;
}

function deepestNode(root: Node, path: JsonPath): { node: Node; exact: boolean } | undefined {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = findNodeAtLocation(root, path.slice(0, depth));
    if (node) return { node, exact: depth === path.length };
  }
  return undefined;
}

/** The range of the value at `path` (or of `span` inside it when it is a string) in a JSON text. */
export function locateInJson(text: string, path: JsonPath, span?: [number, number]): TextRange | undefined {
  const root = parseTree(text);
  if (!root) {
    const at = locateJsonPath(text, path);
    return at ? { start: at, end: { line: at.line, column: at.column + 1 } } : undefined;
  }
  const found = deepestNode(root, path);
  if (!found) return undefined;
  const { node, exact } = found;
  let startOffset = node.offset;
  let endOffset = node.offset + node.length;
  if (exact && span && node.type === 'string') {
    const map = rawOffsets(text.slice(node.offset + 1, node.offset + node.length - 1));
    const s = map[Math.min(span[0], map.length - 1)];
    const e = map[Math.min(span[1], map.length - 1)];
    startOffset = node.offset + 1 + s;
    endOffset = node.offset + 1 + Math.max(e, s + 1);
  } else if (node.type === 'object' || node.type === 'array') {
    // A whole object: its opening line (the problem is "a field is missing here").
    const lineEnd = text.indexOf('\n', node.offset);
    endOffset = lineEnd === -1 ? Math.min(endOffset, node.offset + 1) : Math.min(endOffset, lineEnd);
    if (node.parent?.type === 'property' && node.parent.children?.[0]) startOffset = node.parent.children[0].offset;
  } else if (!exact) {
    // The path's last key is missing: point at the deepest existing node's start.
    endOffset = Math.min(endOffset, startOffset + 1);
  }
  return { start: lineColumnAt(text, startOffset), end: lineColumnAt(text, endOffset) };
}

/** For a JSONL file: the range in line `lineNumber` (1-based) of the file. */
export function locateInJsonLine(fileText: string, lineNumber: number, path: JsonPath, span?: [number, number]): TextRange | undefined {
  const lines = fileText.split('\n');
  const line = (lines[lineNumber - 1] ?? '').replace(/\r$/, '');
  const r = locateInJson(line, path, span);
  if (!r) return undefined;
  return { start: { line: r.start.line + lineNumber - 1, column: r.start.column }, end: { line: r.end.line + lineNumber - 1, column: r.end.column } };
}
