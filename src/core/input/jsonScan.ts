// One iterative pass over a JSON text (RFC 8259, what JSON.parse accepts): the first syntax
// error with its offset, the offset of every value (to turn JSON paths into line:column), and
// keys repeated within one object. Iterative with an explicit stack, so a 100,000-deep file
// cannot overflow the call stack; linear in the text, so locating many problems stays cheap.

export type JsonKey = string | number;

export interface JsonSyntaxError {
  offset: number;
  message: string;
}

export interface DuplicateKey {
  key: string;
  /** Offset of the repeated key's opening quote. */
  offset: number;
  /** Path of the object holding the key. */
  path: JsonKey[];
}

interface ScanHandlers {
  /** A value starts at `offset`; `key` is its name or index in the enclosing container (undefined at the top). */
  value?(offset: number, key: JsonKey | undefined, container: boolean): void;
  /** The innermost open container closed. */
  end?(): void;
  duplicate?(duplicate: DuplicateKey): void;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const STRING_RUN = /[^"\\\u0000-\u001f]*/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** One open container: its kind, its next index or pending key, and (for duplicate checks) the keys seen. */
interface Frame {
  object: boolean;
  index: number;
  /** An array's first element was read (or it was found empty). */
  started: boolean;
  key?: string;
  keys?: Set<string>;
}

/**
 * Scans `text` once. Returns the first syntax error, or undefined when the text is one valid JSON
 * value (surrounded by whitespace only).
 */
function scan(text: string, handlers: ScanHandlers): JsonSyntaxError | undefined {
  const stack: Frame[] = [];
  const path: JsonKey[] = [];
  const wantKeys = handlers.duplicate !== undefined;
  let i = 0;
  const n = text.length;
  const skipWhitespace = (): void => {
    while (i < n && isWhitespace(text.charCodeAt(i))) i++;
  };
  const fail = (message: string, at = i): JsonSyntaxError => ({ offset: at, message });
  const endOfInputInside = (): JsonSyntaxError =>
    fail(stack.at(-1)?.object ? "expected '}' (is the file truncated?)" : "expected ']' (is the file truncated?)");

  /** Reads a string starting at the quote at `i`; returns its end (after the closing quote) or an error. */
  const readString = (): JsonSyntaxError | undefined => {
    i++;
    for (;;) {
      STRING_RUN.lastIndex = i;
      STRING_RUN.exec(text);
      i = STRING_RUN.lastIndex;
      if (i >= n) return fail('unterminated string (is the file truncated?)');
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        i++;
        return undefined;
      }
      if (c === BACKSLASH) {
        const e = text[i + 1];
        if (e === undefined) return fail('unterminated string (is the file truncated?)', i + 1);
        if (e === 'u') {
          HEX4.lastIndex = i + 2;
          if (!HEX4.test(text)) return fail('invalid \\u escape');
          i += 6;
        } else if ('"\\/bfnrt'.includes(e)) i += 2;
        else return fail('invalid escape character');
        continue;
      }
      return fail('invalid character in string (control characters must be escaped)');
    }
  };

  /** Reads one value at `i`; containers are opened (pushed), not read to their end. */
  const readValue = (key: JsonKey | undefined): JsonSyntaxError | undefined => {
    skipWhitespace();
    if (i >= n) return stack.length ? endOfInputInside() : fail('expected a value');
    const c = text[i];
    const start = i;
    if (c === '{' || c === '[') {
      handlers.value?.(start, key, true);
      stack.push({ object: c === '{', index: 0, started: false, ...(wantKeys && c === '{' ? { keys: new Set<string>() } : {}) });
      if (key !== undefined) path.push(key);
      i++;
      return undefined;
    }
    handlers.value?.(start, key, false);
    if (c === '"') return readString();
    if (c === '-' || (c >= '0' && c <= '9')) {
      NUMBER.lastIndex = i;
      const match = NUMBER.exec(text);
      if (!match || match.index !== i) return fail('invalid number');
      i = NUMBER.lastIndex;
      if (i < n && /[0-9.eE+-]/.test(text[i])) return fail('invalid number');
      return undefined;
    }
    for (const literal of ['true', 'false', 'null']) {
      if (text.startsWith(literal, i)) {
        i += literal.length;
        return undefined;
      }
    }
    return fail(c === ',' || c === ']' || c === '}' || c === ':' ? 'expected a value' : 'unexpected character');
  };

  const closeContainer = (): void => {
    stack.pop();
    if (stack.length) path.pop();
    i++;
    handlers.end?.();
  };

  let error = readValue(undefined);
  if (error) return error;
  while (stack.length) {
    const frame = stack[stack.length - 1];
    skipWhitespace();
    if (i >= n) return endOfInputInside();
    const c = text[i];
    if (frame.object) {
      if (frame.key === undefined) {
        // Expecting a key (or '}' right after '{').
        if (c === '}' && frame.index === 0) {
          closeContainer();
          continue;
        }
        if (c !== '"') return fail('expected a property name in double quotes');
        const keyStart = i;
        error = readString();
        if (error) return error;
        const raw = text.slice(keyStart + 1, i - 1);
        frame.key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (frame.keys) {
          if (frame.keys.has(frame.key)) handlers.duplicate?.({ key: frame.key, offset: keyStart, path: path.slice() });
          frame.keys.add(frame.key);
        }
        skipWhitespace();
        if (i >= n) return endOfInputInside();
        if (text[i] !== ':') return fail("expected ':'");
        i++;
        const key = frame.key;
        error = readValue(key);
        if (error) return error;
        continue;
      }
      // After a member's value.
      if (c === ',') {
        i++;
        frame.key = undefined;
        frame.index++;
        continue;
      }
      if (c === '}') {
        closeContainer();
        continue;
      }
      return fail("expected ',' or a closing bracket");
    }
    // Array.
    if (!frame.started) {
      frame.started = true;
      if (c === ']') {
        closeContainer();
        continue;
      }
      error = readValue(0);
      if (error) return error;
      continue;
    }
    if (c === ',') {
      i++;
      frame.index++;
      error = readValue(frame.index);
      if (error) return error;
      continue;
    }
    if (c === ']') {
      closeContainer();
      continue;
    }
    return fail("expected ',' or a closing bracket");
  }
  skipWhitespace();
  if (i < n) return fail('expected the end of the JSON text (several JSON documents? use one per line, JSONL)');
  return undefined;
}

/** The first syntax error of a JSON text; undefined when it is valid JSON. */
export function firstSyntaxError(text: string): JsonSyntaxError | undefined {
  return scan(text, {});
}

/** Keys that appear twice in one object (JSON.parse silently keeps the last value). */
export function duplicateKeys(text: string, limit = 100): DuplicateKey[] {
  const found: DuplicateKey[] = [];
  scan(text, { duplicate: (d) => (found.length < limit ? found.push(d) : undefined) });
  return found;
}

interface ValueNode {
  offset: number;
  children?: Map<string, ValueNode> | ValueNode[];
}

/**
 * Offsets of the values of one JSON text, built in one pass, then looked up by path as often as
 * needed; line:column from a table of line starts (binary search, not a scan from the start).
 */
export class JsonLocator {
  private readonly root: ValueNode | undefined;
  private lineStarts: number[] | undefined;

  constructor(private readonly text: string) {
    let root: ValueNode | undefined;
    const open: ValueNode[] = [];
    scan(text, {
      value(offset, key, container) {
        const node: ValueNode = container ? { offset, children: text[offset] === '{' ? new Map() : [] } : { offset };
        const parent = open[open.length - 1];
        if (!parent) root = node;
        else if (parent.children instanceof Map) parent.children.set(String(key), node);
        else parent.children?.push(node);
        if (container) open.push(node);
      },
      end() {
        open.pop();
      },
    });
    this.root = root;
  }

  /** Offset of the value at `path`, or of its deepest existing ancestor; undefined for an unparseable start. */
  offsetOf(path: readonly JsonKey[]): number | undefined {
    let node = this.root;
    if (!node) return undefined;
    for (const key of path) {
      const children: Map<string, ValueNode> | ValueNode[] | undefined = node.children;
      const next: ValueNode | undefined = children instanceof Map ? children.get(String(key)) : typeof key === 'number' ? children?.[key] : undefined;
      if (!next) break;
      node = next;
    }
    return node.offset;
  }

  lineColumnOf(offset: number): { line: number; column: number } {
    if (!this.lineStarts) {
      const starts = [0];
      for (let i = this.text.indexOf('\n'); i !== -1; i = this.text.indexOf('\n', i + 1)) starts.push(i + 1);
      this.lineStarts = starts;
    }
    const starts = this.lineStarts;
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - starts[low] + 1 };
  }

  locate(path: readonly JsonKey[]): { line: number; column: number } | undefined {
    const offset = this.offsetOf(path);
    return offset === undefined ? undefined : this.lineColumnOf(offset);
  }
}
