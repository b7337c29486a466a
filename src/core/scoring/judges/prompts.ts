// Loads versioned judge prompts from prompts/judges/<judge>/v<N>.md (see prompts/judges/README.md).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface PromptTemplate {
  /** "deepsearchqa-grader/v1" */
  version: string;
  system: string;
  user: string;
}

let cachedRoot: string | undefined;

/** The package's prompts/ folder: found by walking up from this module (src/… in tests, dist/ when bundled). */
export function promptsRoot(): string {
  if (cachedRoot) return cachedRoot;
  let dir = __dirname;
  for (let i = 0; i < 8; i++) {
    const candidate = join(dir, 'prompts', 'judges');
    if (existsSync(candidate)) return (cachedRoot = join(dir, 'prompts'));
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new Error('cannot find the prompts/judges folder of Trajectory Auditor');
}

const templates = new Map<string, PromptTemplate>();

/** Parses a prompt file's text: the parts after `<!-- system -->` and `<!-- user -->`. */
export function parsePromptText(text: string, version: string): PromptTemplate {
  const system = /<!--\s*system\s*-->\r?\n([\s\S]*?)(?=<!--\s*user\s*-->)/.exec(text);
  const user = /<!--\s*user\s*-->\r?\n([\s\S]*)$/.exec(text);
  if (!system || !user) throw new Error(`prompt ${version} lacks a <!-- system --> or <!-- user --> part`);
  return { version, system: system[1].trim(), user: user[1].trim() };
}

export function loadPrompt(judge: string, version = 'v1', root = promptsRoot()): PromptTemplate {
  const key = `${root}|${judge}/${version}`;
  const hit = templates.get(key);
  if (hit) return hit;
  const template = parsePromptText(readFileSync(join(root, 'judges', judge, `${version}.md`), 'utf8'), `${judge}/${version}`);
  templates.set(key, template);
  return template;
}

/** Substitutes {{name}} placeholders in one pass (values are never re-scanned); a missing value is an error. */
export function fillTemplate(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`prompt placeholder {{${name}}} has no value`);
    return String(values[name]);
  });
}

export function renderPrompt(template: PromptTemplate, values: Record<string, string | number>): { system: string; user: string } {
  return { system: fillTemplate(template.system, values), user: fillTemplate(template.user, values) };
}
