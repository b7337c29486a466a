// The harness prompts: versioned files under prompts/harness/ (see prompts/harness/README.md).
//
// - Delegation (seed 000) prompts are plain .txt files holding the seed's text character for
//   character, with the seed's own single-brace placeholders ({query}, {serialized_documents}, …).
//   A file is used exactly as written, except that one trailing newline (an editor's) is dropped.
// - Role prompts (Stage C, Clarify-Then-Search) are .md files with an HTML comment, then
//   `<!-- system -->` and `<!-- user -->` parts and {{name}} placeholders, like prompts/judges.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promptsRoot } from '../audit/prompts';
import { fillTemplate, parsePromptText, type PromptTemplate } from '../scoring/judges/prompts';
import type { ToolSpec } from '../providers/types';

export const DELEGATION_PROMPT_VERSION = 'delegation/v1';

const cache = new Map<string, string>();

function harnessRoot(root?: string): string {
  return join(root ?? promptsRoot(), 'harness');
}

/** A prompt file's exact text (one trailing newline dropped). */
export function readHarnessPrompt(relativePath: string, root?: string): string {
  const path = join(harnessRoot(root), relativePath);
  let text = cache.get(path);
  if (text === undefined) {
    text = readFileSync(path, 'utf8')
      .replace(/^\uFEFF/, '')
      .replace(/\r?\n$/, '');
    cache.set(path, text);
  }
  return text;
}

/** Replaces the seed's {name} placeholders in one pass (values are never re-scanned); unknown names are an error. */
export function fillSingleBrace(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    if (!(name in values)) throw new Error(`prompt placeholder {${name}} has no value`);
    return String(values[name]);
  });
}

export interface DelegationPrompts {
  version: string;
  fullSystem: string;
  fullUser: string;
  document: string;
  searchSystem: string;
  searchUser: string;
  finalMessage: string;
  searchTool: ToolSpec;
}

export function delegationPrompts(root?: string): DelegationPrompts {
  const dir = 'delegation/v1';
  return {
    version: DELEGATION_PROMPT_VERSION,
    fullSystem: readHarnessPrompt(`${dir}/full.system.txt`, root),
    fullUser: readHarnessPrompt(`${dir}/full.user.txt`, root),
    document: readHarnessPrompt(`${dir}/document.txt`, root),
    searchSystem: readHarnessPrompt(`${dir}/search.system.txt`, root),
    searchUser: readHarnessPrompt(`${dir}/search.user.txt`, root),
    finalMessage: readHarnessPrompt(`${dir}/final-message.txt`, root),
    searchTool: JSON.parse(readHarnessPrompt(`${dir}/search-tool.json`, root)) as ToolSpec,
  };
}

/** A role prompt (`<stage>/v<N>/<role>.md`): system and user parts. */
export function rolePrompt(relativePath: string, root?: string): PromptTemplate {
  return parsePromptText(readHarnessPrompt(relativePath, root), relativePath.replace(/\.md$/, ''));
}

export function renderRolePrompt(template: PromptTemplate, values: Record<string, string | number>): { system: string; user: string } {
  return { system: fillTemplate(template.system, values), user: fillTemplate(template.user, values) };
}
