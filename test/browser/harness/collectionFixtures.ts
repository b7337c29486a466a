// The collection view's browser-test fixture: one SearchAuditBench JSONL of 10,000 small
// trajectories (five models, three datasets, outcomes, search/visit/code calls, gold labels on
// some) with a sidecar holding annotations by two annotators and audits on others; one record's
// query and model are hostile markup. The fake host reads it with the host's own row builder.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT_CAUSES } from '../../../src/core/model/rootCauses';
import { SIDECAR_SCHEMA } from '../../../src/core/sidecar/schema';
import { sidecarPathFor } from '../../../src/core/sidecar/sidecarFile';
import { readFileRows, type FileRows } from '../../../src/extension/collection/rowReader';
import { HOSTILE } from './editorFixtures';

export const COLLECTION_FIXTURE_FILE = 'collection-10k.jsonl';
/** The fixture's rows as the host builds them (readFileRows), written once by the global setup: reading 10,000 trajectories takes seconds. */
export const COLLECTION_ROWS_FILE = 'collection-10k.rows.json';
export const COLLECTION_ROWS = 10_000;
/** The record whose query and model are hostile markup. */
export const HOSTILE_RECORD = 'run-00007';

const MODELS = ['gpt-research', 'claude-deep', 'qwen-agent', 'gemini-search', 'tongyi-dr'];
const DATASETS = ['browsecomp', 'searchauditbench', 'xbench'];
const PLACES = ['Ardmore', 'Tartu', 'Kaunas', 'Cēsis', 'Pärnu', 'Daugavpils', 'Klaipėda', 'Viljandi'];

const call = (id: string, name: string, args: unknown) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });

function record(i: number): Record<string, unknown> {
  const id = `run-${String(i).padStart(5, '0')}`;
  const place = PLACES[i % PLACES.length];
  const hostile = id === HOSTILE_RECORD;
  const query = hostile ? `${HOSTILE[0]} ${HOSTILE[1]} Which river flows through ${place}?` : `Which river flows through ${place}? (case ${i})`;
  const searches = 1 + (i % 4);
  const messages: unknown[] = [{ role: 'user', content: query }];
  for (let s = 0; s < searches; s++) {
    const name = s === 2 ? 'python' : s === 1 ? 'visit' : 'search';
    const args =
      name === 'python' ? { code: `print(${s})` } : name === 'visit' ? { url: `https://example.org/${place}/${s}` } : { query: `${place} river ${s}` };
    messages.push({ role: 'assistant', content: '', tool_calls: [call(`c${s}`, name, args)] });
    messages.push({ role: 'tool', tool_call_id: `c${s}`, content: `Result ${s} about ${place}: the river ${i % 7} flows nearby.` });
  }
  messages.push({ role: 'assistant', content: `<answer>River ${i % 7}</answer>` });
  const value: Record<string, unknown> = {
    id,
    query,
    predicted_answer: `River ${i % 7}`,
    model: hostile ? HOSTILE[3] : MODELS[i % MODELS.length],
    dataset: DATASETS[i % DATASETS.length],
    outcome: { success: i % 3 === 0, score: i % 3 === 0 ? 1 : 0, source: 'reward' },
    trajectory: messages,
  };
  if (i % 5 === 0) {
    value.critical_step = 1;
    value.tolerance_span = [1, 2];
    value.root_cause = ROOT_CAUSES[i % ROOT_CAUSES.length];
  }
  return value;
}

function sidecar(): string {
  const records: Record<string, unknown> = {};
  for (let i = 0; i < COLLECTION_ROWS; i++) {
    const id = `run-${String(i).padStart(5, '0')}`;
    const entry: Record<string, unknown> = {};
    if (i % 7 === 1) entry.annotation = { criticalStep: 1, rootCause: ROOT_CAUSES[i % 6], annotator: i % 2 ? 'ann-1' : 'ann-2' };
    if (i % 11 === 2)
      entry.audits = [
        { id: `a-${i}`, method: 'heuristic', createdAt: '2026-03-01T00:00:00Z', diagnosis: { criticalStep: 1 + (i % 2), rootCause: ROOT_CAUSES[(i + 1) % 6] } },
      ];
    if (Object.keys(entry).length) records[id] = entry;
  }
  return JSON.stringify({ schema: SIDECAR_SCHEMA, trajectory: { file: COLLECTION_FIXTURE_FILE, sha256: null, format: 'searchauditbench' }, records });
}

/** Writes the JSONL, its sidecar and the rows the host builds from them (display names relative to `dir`). */
export function writeCollectionFixtures(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, COLLECTION_FIXTURE_FILE);
  const lines: string[] = [];
  for (let i = 0; i < COLLECTION_ROWS; i++) lines.push(JSON.stringify(record(i)));
  writeFileSync(path, `${lines.join('\n')}\n`);
  writeFileSync(sidecarPathFor(path), sidecar());
  const rows: FileRows = readFileRows(path, true, { display: (file) => relative(dir, file) });
  if (rows.unreadable.length || rows.rows.length !== COLLECTION_ROWS)
    throw new Error(`${path}: ${rows.rows.length} rows, ${JSON.stringify(rows.unreadable[0])}`);
  writeFileSync(join(dir, COLLECTION_ROWS_FILE), JSON.stringify(rows));
  return path;
}
