import { z } from 'zod';

/**
 * An object keyed by ids that come from data (record ids, item ids, document ids). It has no
 * prototype, so an id such as `__proto__` or `constructor` is an ordinary own key: assigning it
 * does not replace the prototype, and reading a missing id never finds Object.prototype's members.
 */
export function idKeyedObject<T>(entries?: Iterable<readonly [string, T]>): Record<string, T> {
  const out = Object.create(null) as Record<string, T>;
  if (entries) for (const [key, value] of entries) out[key] = value;
  return out;
}

/**
 * `z.record(z.string(), value)` for id-keyed data: zod's record assigns keys into a plain object,
 * which turns a `__proto__` key into the prototype (the entry silently disappears). This one checks
 * every entry with `value` (issues keep their path under the key) and returns an idKeyedObject.
 */
export function idKeyedRecord<T extends z.ZodType>(value: T) {
  return z.unknown().transform((input, ctx): Record<string, z.output<T>> => {
    if (input === null || typeof input !== 'object' || Array.isArray(input)) {
      ctx.addIssue({ code: 'invalid_type', expected: 'object', input, message: 'expected an object keyed by id' });
      return z.NEVER;
    }
    const out = idKeyedObject<z.output<T>>();
    for (const key of Object.keys(input)) {
      const result = value.safeParse((input as Record<string, unknown>)[key]);
      if (result.success) out[key] = result.data;
      else for (const issue of result.error.issues) ctx.addIssue({ ...issue, path: [key, ...issue.path] } as never);
    }
    return out;
  });
}
