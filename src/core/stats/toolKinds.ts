// What kind of tool a call uses (spec §1, docs/formats.md §6): search, visit (open/fetch/browse),
// code (shell, Python, any command runner), file-edit, or other. One table for the statistics
// (Appendix C counts search and visit calls), the auditors, the answer trace and the editor's
// markers. Pure, no tokenizer: the webview bundles it.

export interface ToolNames {
  /** Calls counted as search calls (SearchAuditBench Appendix C); default DEFAULT_SEARCH_NAMES. */
  searchNames?: string[];
  /** Calls counted as visit calls; default DEFAULT_VISIT_NAMES. */
  visitNames?: string[];
}

export type ToolKind = 'search' | 'visit' | 'code' | 'file-edit' | 'other';

/** Every kind, in the order legends list them. */
export const TOOL_KINDS: readonly ToolKind[] = ['search', 'visit', 'code', 'file-edit', 'other'];

/**
 * Tool names that are searches unless configured otherwise (`trajaudit.tools.searchNames`,
 * `--search-names`): the benchmark's own `search` and the names common agent frameworks and
 * provider APIs give their web-search tools. A default name matches whatever its case and
 * separators (`WebSearch`, `web_search`, `web-search`); a configured name matches exactly.
 */
export const DEFAULT_SEARCH_NAMES: readonly string[] = [
  'search',
  'web_search',
  'google_search',
  'google_web_search',
  'bing_search',
  'duckduckgo_search',
  'brave_search',
  'tavily_search',
  'tavily_search_results_json',
  'serper_search',
  'serpapi_search',
  'exa_search',
  'search_web',
  'websearch',
  'web_search_preview',
  'wikipedia_search',
  'wiki_search',
  'search_engine',
];

/** Tool names that open a page unless configured otherwise (`trajaudit.tools.visitNames`, `--visit-names`); matched as DEFAULT_SEARCH_NAMES. */
export const DEFAULT_VISIT_NAMES: readonly string[] = [
  'visit',
  'visit_webpage',
  'visit_page',
  'fetch',
  'fetch_url',
  'fetch_page',
  'fetch_webpage',
  'web_fetch',
  'webfetch',
  'web_read',
  'browse',
  'browse_page',
  'browser',
  'web_browser',
  'web_browser_go',
  'browser_navigate',
  'open',
  'open_url',
  'open_page',
  'scrape',
  'scrape_page',
  'crawl',
  'read_url',
  'read_page',
  'get_webpage',
];

/** Tools that run code or commands: shells, interpreters, notebooks. */
export const CODE_NAMES: readonly string[] = [
  'bash',
  'shell',
  'sh',
  'zsh',
  'terminal',
  'cmd',
  'command',
  'run_command',
  'run_shell_command',
  'shell_command',
  'exec',
  'exec_command',
  'execute',
  'execute_bash',
  'execute_command',
  'execute_code',
  'execute_ipython_cell',
  'python',
  'python_interpreter',
  'python_repl',
  'ipython',
  'run_python',
  'run_code',
  'code',
  'code_interpreter',
  'code_execution',
  'jupyter',
  'notebook',
  'local_shell',
  'container_exec',
];

/** Tools that change files: editors, writers, patches. */
export const FILE_EDIT_NAMES: readonly string[] = [
  'str_replace_editor',
  'str_replace_based_edit_tool',
  'text_editor',
  'edit',
  'edit_file',
  'multi_edit',
  'multiedit',
  'write',
  'write_file',
  'write_to_file',
  'create',
  'create_file',
  'replace',
  'replace_in_file',
  'insert',
  'apply_patch',
  'apply_diff',
  'patch',
  'notebook_edit',
  'notebookedit',
];

/**
 * The argument shapes that give an unknown tool its kind, first match wins: `keys` must all be
 * there (a string, or a list for query/url), and with `anyOf`, one of those too.
 */
export const ARGUMENT_SHAPES: readonly { kind: ToolKind; keys: readonly string[]; anyOf?: readonly string[] }[] = [
  { kind: 'file-edit', keys: ['path'], anyOf: ['old_str', 'new_str', 'content', 'patch', 'file_text', 'diff', 'new_string', 'old_string'] },
  { kind: 'file-edit', keys: ['file_path'], anyOf: ['old_str', 'new_str', 'content', 'patch', 'file_text', 'diff', 'new_string', 'old_string'] },
  { kind: 'file-edit', keys: ['patch'] },
  { kind: 'code', keys: ['command'] },
  { kind: 'code', keys: ['cmd'] },
  { kind: 'code', keys: ['code'] },
  { kind: 'code', keys: ['script'] },
  { kind: 'search', keys: ['query'] },
  { kind: 'search', keys: ['queries'] },
  { kind: 'search', keys: ['search_query'] },
  { kind: 'visit', keys: ['url'] },
  { kind: 'visit', keys: ['urls'] },
];

/** `WebSearch`, `web-search` and `web_search` are one default name. */
function normalized(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function normalizedSet(names: readonly string[]): Set<string> {
  return new Set(names.map(normalized));
}

const DEFAULT_SEARCH = normalizedSet(DEFAULT_SEARCH_NAMES);
const DEFAULT_VISIT = normalizedSet(DEFAULT_VISIT_NAMES);
const CODE = normalizedSet(CODE_NAMES);
const FILE_EDIT = normalizedSet(FILE_EDIT_NAMES);

function hasValue(args: Record<string, unknown>, key: string): boolean {
  const value = args[key];
  return typeof value === 'string' || Array.isArray(value) || (typeof value === 'object' && value !== null);
}

function kindOfArguments(args: unknown, searchAndVisit: { search: boolean; visit: boolean }): ToolKind | undefined {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  const obj = args as Record<string, unknown>;
  for (const shape of ARGUMENT_SHAPES) {
    if ((shape.kind === 'search' && !searchAndVisit.search) || (shape.kind === 'visit' && !searchAndVisit.visit)) continue;
    if (shape.keys.every((key) => hasValue(obj, key)) && (!shape.anyOf || shape.anyOf.some((key) => key in obj))) return shape.kind;
  }
  return undefined;
}

/**
 * The one classification of tool calls. In order: a configured search or visit list (exact
 * names; it replaces its default list and also turns off that kind's argument shapes), else the
 * default lists; then the code and file-edit names; then, for a name in no list, the argument
 * shapes (ARGUMENT_SHAPES). A name in both search and visit lists is a search.
 */
export function toolKind(name: string | undefined, names: ToolNames = {}, args?: unknown): ToolKind {
  if (!name) return 'other';
  const key = normalized(name);
  if (names.searchNames ? names.searchNames.includes(name) : DEFAULT_SEARCH.has(key)) return 'search';
  if (names.visitNames ? names.visitNames.includes(name) : DEFAULT_VISIT.has(key)) return 'visit';
  if (CODE.has(key)) return 'code';
  if (FILE_EDIT.has(key)) return 'file-edit';
  return kindOfArguments(args, { search: !names.searchNames, visit: !names.visitNames }) ?? 'other';
}

/** toolKind of a call, from its name and its parsed arguments. */
export function callKind(call: { name: string; arguments?: unknown }, names: ToolNames = {}): ToolKind {
  return toolKind(call.name, names, call.arguments);
}

/** Whether Appendix C counts a call of this kind as a search or visit call (every other kind is one plain operation). */
export function isSearchOrVisit(kind: ToolKind): kind is 'search' | 'visit' {
  return kind === 'search' || kind === 'visit';
}

/** The lists toolKind uses for `names`, defaults filled in (what the host sends the webview). */
export function resolvedToolNames(names: ToolNames = {}): Required<ToolNames> {
  return { searchNames: [...(names.searchNames ?? DEFAULT_SEARCH_NAMES)], visitNames: [...(names.visitNames ?? DEFAULT_VISIT_NAMES)] };
}
