// bench:load's readers section (issue 15 item 6): for every test/bench/formats/<id>.ts, loadText
// of its makeLarge() against bare JSON.parse of the same bytes (for JSONL, JSON.parse of each
// line, the values kept), in the same run. Target: every reader ≤ 2× JSON.parse.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadText } from '../../src/core/load/loadFile';
import { bestSteady } from './timing';

export interface ReaderRow {
  figure: string;
  target: string;
  measured: string;
  baseline: string;
  ratio: number;
}

/**
 * The bare parse a file of this text needs: one JSON.parse, or one per JSONL line with the values
 * kept, as a reader must keep them and as one JSON.parse of the same records in an array does
 * (parsing lines and dropping each value at once costs about half: nothing survives a scavenge).
 */
function bareParse(text: string): () => void {
  try {
    JSON.parse(text);
    return () => JSON.parse(text);
  } catch {
    const lines = text.split('\n').filter((line) => line.trim() !== '');
    return () => lines.map((line): unknown => JSON.parse(line));
  }
}

/** `only`: the format ids to run (`--readers=atif,codex`); all when undefined. */
export function readerRows(runs: number, log: (line: string) => void = console.log, only?: readonly string[]): ReaderRow[] {
  const dir = join(__dirname, 'formats');
  const rows: ReaderRow[] = [];
  for (const entry of readdirSync(dir)
    .filter((name) => name.endsWith('.ts') && (!only || only.includes(name.replace(/\.ts$/, ''))))
    .sort()) {
    const id = entry.replace(/\.ts$/, '');
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- each generator is found at run time
    const generator = require(join(dir, entry)) as { makeLarge?: () => string };
    if (typeof generator.makeLarge !== 'function') {
      log(`readers: ${entry} exports no makeLarge(); skipped`);
      continue;
    }
    const text = generator.makeLarge();
    const mib = Buffer.byteLength(text) / 2 ** 20;
    const check = loadText(text, `large-${id}`);
    if (check.detection.kind !== id) throw new Error(`${entry}: makeLarge() is read as ${check.detection.kind}, not ${id}`);
    // Both sides run until steady (at least `runs` runs and 300 ms each), so the reader's code is
    // measured optimised, as it is after the first few files a user opens.
    const parseMs = bestSteady(runs, 300, bareParse(text));
    const loadMs = bestSteady(runs, 300, () => loadText(text, `large-${id}`));
    log(`readers: ${id}: ${mib.toFixed(0)} MiB, ${check.records.length} record(s), load ${loadMs.toFixed(0)} ms, JSON.parse ${parseMs.toFixed(0)} ms`);
    rows.push({
      figure: `reader ${id}: loadText of a ${mib.toFixed(0)} MiB file (${check.container}, ${check.records.length} records)`,
      target: '≤ 2.0× JSON.parse',
      measured: `${loadMs.toFixed(0)} ms`,
      baseline: `${parseMs.toFixed(0)} ms`,
      ratio: loadMs / parseMs,
    });
  }
  return rows;
}
