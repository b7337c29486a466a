import type { z } from 'zod';
import { InputError } from './inputError';
import { formatJsonPath, locateJsonPath, type JsonPath } from './jsonText';

export interface SourceText {
  file: string;
  /** The JSON text the value came from, to turn a JSON path into line:column. */
  text?: string;
  /** Line of the text's first line in the file (JSONL records). */
  lineOffset?: number;
  /** Path of the value inside the text. */
  basePath?: JsonPath;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return value.length > 40 ? 'a string' : `the string ${JSON.stringify(value)}`;
  return `${typeof value} ${String(value)}`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let node: unknown = root;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

/** Validates with zod; on failure throws an InputError naming the JSON path, line:column and what was expected. */
export function checkSchema<T extends z.ZodType>(schema: T, value: unknown, source: SourceText, what: string): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw schemaError(result.error, value, source, what);
}

export function schemaError(error: z.ZodError, value: unknown, source: SourceText, what: string): InputError {
  const issue = error.issues[0];
  const path = [...(source.basePath ?? []), ...(issue.path as (string | number)[])];
  const got = valueAt(value, issue.path);
  let detail = issue.message;
  if (issue.code === 'invalid_type') {
    detail =
      got === undefined ? `missing ${String(issue.path.at(-1) ?? 'value')}; expected ${issue.expected}` : `expected ${issue.expected}, got ${describe(got)}`;
  } else if (issue.code === 'invalid_union') {
    detail = `unexpected ${describe(got)}; ${issue.message}`;
  }
  const where = source.text ? locateJsonPath(source.text, path.slice((source.basePath ?? []).length ? 0 : 0)) : undefined;
  return new InputError(source.file, `${detail} (${what})`, {
    path: formatJsonPath(path),
    ...(where ? { line: where.line + (source.lineOffset ?? 0), column: where.column } : {}),
  });
}
