// Pre-checks of every Delegation item in a file's text (one JSON item, a JSON array of items, or
// JSONL), each finding with its line:column range in that text (for the Problems panel and the CLI).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonPath } from '../../input/jsonText';
import { readTextFile } from '../../input/readText';
import { delegationItemSchema, type DelegationItem } from '../../items/schemas';
import { locateInJson, locateInJsonLine, type TextRange } from './locate';
import { precheckItem, type PrecheckFinding } from './precheck';

export interface LocatedFinding extends PrecheckFinding {
  itemId: string;
  range?: TextRange;
}

const looksLikeItem = (v: unknown): boolean => !!v && typeof v === 'object' && !Array.isArray(v) && ('golden_docs' in v || 'distractor_docs' in v);

/** Whether a text is worth pre-checking (cheap test before parsing). */
export function mayHoldDelegationItems(text: string): boolean {
  return text.includes('"golden_docs"') || text.includes('"distractor_docs"');
}

export function precheckText(text: string): { items: number; findings: LocatedFinding[] } {
  const findings: LocatedFinding[] = [];
  let items = 0;
  const check = (value: unknown, locate: (path: JsonPath, span?: [number, number]) => TextRange | undefined) => {
    if (!looksLikeItem(value)) return;
    const parsed = delegationItemSchema.safeParse(value);
    if (!parsed.success) return; // schema problems are `trajaudit validate`'s
    items++;
    const item = parsed.data as DelegationItem;
    for (const f of precheckItem(item)) findings.push({ ...f, itemId: String(item.id), range: locate(f.path, f.span) });
  };
  let whole: unknown;
  let parsedWhole = false;
  try {
    whole = JSON.parse(text);
    parsedWhole = true;
  } catch {
    /* JSONL or broken */
  }
  if (parsedWhole) {
    if (Array.isArray(whole)) whole.forEach((v, i) => check(v, (path, span) => locateInJson(text, [i, ...path], span)));
    else check(whole, (path, span) => locateInJson(text, path, span));
    return { items, findings };
  }
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return;
    }
    check(value, (path, span) => locateInJsonLine(text, i + 1, path, span));
  });
  return { items, findings };
}

/** Pre-checks of an items file, or of every JSON/JSONL file of a folder that holds Delegation items. */
export function precheckPath(path: string): { file: string; items: number; findings: LocatedFinding[] }[] {
  const files = statSync(path).isDirectory()
    ? readdirSync(path)
        .sort()
        .filter((n) => /\.jsonl?$/i.test(n) && !n.endsWith('.audit.json'))
        .map((n) => join(path, n))
    : [path];
  const out: { file: string; items: number; findings: LocatedFinding[] }[] = [];
  for (const file of files) {
    const text = readTextFile(file);
    if (!mayHoldDelegationItems(text)) continue;
    out.push({ file, ...precheckText(text) });
  }
  return out;
}
