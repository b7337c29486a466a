// Which tool calls are searches and which are visits (SearchAuditBench Appendix C): one table
// for the statistics, the auditors, the answer trace and the editor's markers. Pure, no
// tokenizer: the webview bundles it. The lists are documented in docs/formats.md §6.

export interface ToolNames {
  /** Calls counted as search calls (SearchAuditBench Appendix C); default DEFAULT_SEARCH_NAMES. */
  searchNames?: string[];
  /** Calls counted as visit calls; default DEFAULT_VISIT_NAMES. */
  visitNames?: string[];
}

/**
 * Tool names that are searches unless configured otherwise (`trajaudit.tools.searchNames`,
 * `--search-names`): the benchmark's own `search` and the names common agent frameworks and
 * provider APIs give their web-search tools. Names match exactly (case-sensitive).
 */
export const DEFAULT_SEARCH_NAMES: readonly string[] = [
  'search',
  'web_search',
  'google_search',
  'bing_search',
  'duckduckgo_search',
  'brave_search',
  'tavily_search',
  'serper_search',
  'search_web',
  'websearch',
  'wikipedia_search',
  'wiki_search',
];

/** Tool names that open a page unless configured otherwise (`trajaudit.tools.visitNames`, `--visit-names`). */
export const DEFAULT_VISIT_NAMES: readonly string[] = [
  'visit',
  'visit_webpage',
  'visit_page',
  'fetch',
  'fetch_url',
  'fetch_page',
  'web_fetch',
  'browse',
  'browse_page',
  'browser',
  'web_browser',
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

/** What Appendix C counts a call as: a search, a visit (open/fetch/browse), or neither. */
export type ToolKind = 'search' | 'visit' | 'other';

/**
 * The one classification of tool names, used by the statistics, the auditors, the answer trace
 * and the editor's markers. A configured list replaces its default list; a name in both lists
 * is a search.
 */
export function toolKind(name: string | undefined, names: ToolNames = {}): ToolKind {
  if (!name) return 'other';
  if ((names.searchNames ?? DEFAULT_SEARCH_NAMES).includes(name)) return 'search';
  if ((names.visitNames ?? DEFAULT_VISIT_NAMES).includes(name)) return 'visit';
  return 'other';
}

/** The lists toolKind uses for `names`, defaults filled in (what the host sends the webview). */
export function resolvedToolNames(names: ToolNames = {}): Required<ToolNames> {
  return { searchNames: [...(names.searchNames ?? DEFAULT_SEARCH_NAMES)], visitNames: [...(names.visitNames ?? DEFAULT_VISIT_NAMES)] };
}
