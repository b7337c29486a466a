// The environment variables that hold the product's API keys: the ones the CLI reads
// (OPENAI_API_KEY, ANTHROPIC_API_KEY) and the other credentials the provider SDKs look for.

export const PROVIDER_KEY_ENV = [
  'OPENAI_API_KEY',
  'OPENAI_ADMIN_KEY',
  'OPENAI_WEBHOOK_SECRET',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'ANTHROPIC_WEBHOOK_SIGNING_KEY',
] as const;

/**
 * A copy of `env` without the provider key variables and without any variable whose value is one
 * of `secrets` (keys configured under other names, e.g. a verifier's apiKeyEnv).
 */
export function withoutProviderKeys(env: NodeJS.ProcessEnv, secrets: readonly string[] = []): NodeJS.ProcessEnv {
  const names = new Set<string>(PROVIDER_KEY_ENV);
  const values = new Set(secrets);
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (names.has(name.toUpperCase()) || (value !== undefined && values.has(value.trim()))) continue;
    out[name] = value;
  }
  return out;
}
