// Redaction of API keys: ONE module, used wherever text leaves the process — error messages of
// the model clients, model replies (before they reach sidecars, --json or run folders), the
// agent command's answer, stderr and trajectory, the run-folder writers, and the CLI's stdout
// and stderr.
//
// A key is registered once (createModelClient registers every configured key; the CLI registers
// the provider key variables of its environment) and then redacted in every form it is likely to
// be echoed in: as it is and upper- or lower-cased (case-insensitive match), JSON-escaped,
// URL-encoded (also fully percent-encoded), hex, and base64 / base64url at each of the three byte
// alignments (so a key inside a longer encoded string, e.g. "Basic base64(user:key)", is found).
import { PROVIDER_KEY_ENV } from './keyEnv';

export { PROVIDER_KEY_ENV, withoutProviderKeys } from './keyEnv';

export const REDACTED = '[redacted]';

/** Shorter strings are not treated as keys (they would redact ordinary words). */
const MIN_SECRET_LENGTH = 8;
/** Values that are not secrets although they sit where a key goes. */
const NOT_SECRETS = new Set(['no-key']);

const registered = new Set<string>();
let compiled: { key: string; insensitive?: RegExp; sensitive?: RegExp } | undefined;

/** Registers a key to be redacted from now on in this process (short or empty values are ignored). */
export function registerSecret(secret: string | undefined | null): void {
  const value = secret?.trim();
  if (!value || value.length < MIN_SECRET_LENGTH || NOT_SECRETS.has(value) || registered.has(value)) return;
  registered.add(value);
  compiled = undefined;
}

/** Registers the values of the provider key variables (OPENAI_API_KEY, ANTHROPIC_API_KEY, …). */
export function registerSecretsFromEnv(env: NodeJS.ProcessEnv = process.env): void {
  for (const name of PROVIDER_KEY_ENV) registerSecret(env[name]);
}

export function registeredSecrets(): string[] {
  return [...registered];
}

/** Test hook: forgets the registered keys. */
export function clearRegisteredSecrets(): void {
  registered.clear();
  compiled = undefined;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** The parts of the base64 text of `secret` that do not depend on the bytes around it. */
function base64Cores(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes])
      .toString('base64')
      .replace(/=+$/, '');
    // Characters holding any prefix bit, and those holding bits of whatever follows, vary.
    const start = offset === 0 ? 0 : Math.ceil((offset * 8) / 6);
    const end = Math.floor(((offset + bytes.length) * 8) / 6);
    const core = encoded.slice(start, end);
    if (core.length >= MIN_SECRET_LENGTH) cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...new Set(cores)];
}

function formsOf(secret: string): { insensitive: string[]; sensitive: string[] } {
  const bytes = Buffer.from(secret, 'utf8');
  const insensitive = new Set([
    escapeRegExp(secret),
    escapeRegExp(JSON.stringify(secret).slice(1, -1)),
    escapeRegExp(encodeURIComponent(secret)),
    [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''),
    bytes.toString('hex'),
  ]);
  // Base64 is case-sensitive; a few characters either side belong to the same encoded run.
  const sensitive = base64Cores(secret).map((core) => `[A-Za-z0-9+/_-]{0,3}${escapeRegExp(core)}[A-Za-z0-9+/_-]{0,3}={0,2}`);
  return { insensitive: [...insensitive], sensitive };
}

function patterns(secrets: readonly string[]): { insensitive?: RegExp; sensitive?: RegExp } {
  const key = secrets.join('\u0000');
  if (compiled?.key === key) return compiled;
  const insensitive: string[] = [];
  const sensitive: string[] = [];
  // Longest first, so a key that contains another is redacted whole.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    const forms = formsOf(secret);
    insensitive.push(...forms.insensitive);
    sensitive.push(...forms.sensitive);
  }
  compiled = {
    key,
    ...(insensitive.length ? { insensitive: new RegExp(insensitive.join('|'), 'gi') } : {}),
    ...(sensitive.length ? { sensitive: new RegExp(sensitive.join('|'), 'g') } : {}),
  };
  return compiled;
}

/** `text` with every form of every registered key (and of `extra` keys) replaced by [redacted]. */
export function redactSecrets(text: string, extra: ReadonlyArray<string | undefined> = []): string {
  const more = extra.filter((s): s is string => !!s && s.trim().length >= MIN_SECRET_LENGTH && !NOT_SECRETS.has(s.trim())).map((s) => s.trim());
  const secrets = more.some((s) => !registered.has(s)) ? [...new Set([...registered, ...more])] : [...registered];
  if (secrets.length === 0 || !text) return text;
  const p = patterns(secrets);
  let out = text;
  if (p.sensitive) out = out.replace(p.sensitive, REDACTED);
  if (p.insensitive) out = out.replace(p.insensitive, REDACTED);
  return out;
}

/** Whether `text` holds a form of a registered key. */
export function holdsSecret(text: string): boolean {
  return registered.size > 0 && redactSecrets(text) !== text;
}

/** A JSON-like value with redactSecrets applied to every string in it (keys of objects included). */
export function redactDeep<T>(value: T): T {
  if (registered.size === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactSecrets(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
      const out: Record<string, unknown> = Object.create(Object.getPrototypeOf(v));
      for (const [k, x] of Object.entries(v)) out[redactSecrets(k)] = walk(x);
      return out;
    }
    return v;
  };
  return walk(value) as T;
}
