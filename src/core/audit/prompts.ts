import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The versioned prompt files of `prompts/`. Found next to the bundle (dist/../prompts), beside
 * the sources (src/core/audit/../../../prompts), or where TRAJAUDIT_PROMPTS points.
 */
export function promptsRoot(): string {
  const candidates = [process.env.TRAJAUDIT_PROMPTS, resolve(__dirname, '..', 'prompts'), resolve(__dirname, '..', '..', '..', 'prompts')].filter(
    (p): p is string => Boolean(p),
  );
  const found = candidates.find((p) => existsSync(join(p, 'searchauditor')));
  if (!found) throw new Error(`the prompts folder was not found (looked in ${candidates.join(', ')})`);
  return found;
}

const cache = new Map<string, string>();

export function loadPrompt(relativePath: string): string {
  const path = join(promptsRoot(), relativePath);
  let text = cache.get(path);
  if (text === undefined) {
    text = readFileSync(path, 'utf8').trim();
    cache.set(path, text);
  }
  return text;
}

/** Fills `{{name}}` placeholders; a missing value is an error, not an empty string. */
export function fillPrompt(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`prompt placeholder {{${name}}} has no value`);
    return String(values[name]);
  });
}
