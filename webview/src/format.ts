// Small, locale-independent formatting helpers.

export function formatCount(n: number | undefined | null): string {
  if (n === undefined || n === null || !Number.isFinite(n)) return '—';
  if (Math.abs(n) < 1000) return String(n);
  if (Math.abs(n) < 1_000_000) return (n / 1000).toFixed(Math.abs(n) < 10_000 ? 1 : 0).replace(/\.0$/, '') + 'K';
  return (n / 1_000_000).toFixed(1).replace(/\.0$/, '') + 'M';
}

/** An exact count with thousands separators: 5,000. */
export function formatInt(n: number | undefined | null): string {
  if (n === undefined || n === null || !Number.isFinite(n)) return '—';
  return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export function formatChars(n: number): string {
  if (n < 1024) return `${n} chars`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} K chars`;
  return `${(n / (1024 * 1024)).toFixed(1)} M chars`;
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const pad = (x: number) => String(x).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function plural(n: number, one: string, many = one + 's'): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The tool name of a summarized call such as `search(query=["a"])`. */
export function callToolName(call: string): string {
  const i = call.indexOf('(');
  return (i < 0 ? call : call.slice(0, i)).trim();
}

export function isSearchTool(name: string | undefined): boolean {
  return !!name && /search|query|google|bing/i.test(name);
}

export function isVisitTool(name: string | undefined): boolean {
  return !!name && /visit|browse|open|fetch|scrape|crawl|read|page|url/i.test(name) && !isSearchTool(name);
}
