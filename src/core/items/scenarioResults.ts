// `results.jsonl` of a `scenarios` run folder (docs/run-folders.md §3):
//   {scenario, criteria: {<criterion id>: bool}, silent_citations?: int, …}
// Pure. Parsing keeps each line's text and unknown fields; saving is a three-way merge at the
// level of single criteria, so results written by others (mechanical checks, a judge) survive.
import { InputError } from '../input/inputError';
import { locateSyntaxError } from '../input/jsonText';
import { lineColumnAt } from '../input/readText';
import { sameValue } from '../editing/itemEdits';

export interface ResultLine {
  scenario: string;
  criteria: Record<string, boolean>;
  silent_citations?: number;
  [unknownField: string]: unknown;
}

export interface ParsedLine {
  value: ResultLine;
  /** The line's text as read (re-emitted unchanged when the line is not edited). */
  raw: string;
  line: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** Parses results.jsonl strictly: one line per scenario, criteria as booleans. */
export function parseResults(text: string, displayName: string): ParsedLine[] {
  const out: ParsedLine[] = [];
  const seen = new Map<string, number>();
  const lines = text.split('\n');
  lines.forEach((rawLine, i) => {
    const raw = rawLine.replace(/\r$/, '');
    const line = i + 1;
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      const { offset, message } = locateSyntaxError(raw);
      throw new InputError(displayName, `${message} (one JSON object per line expected)`, { line, column: lineColumnAt(raw, offset).column });
    }
    const fail = (message: string): never => {
      throw new InputError(displayName, `${message}; expected {scenario, criteria: {<criterion id>: bool}, silent_citations?}`, { line, column: 1 });
    };
    if (!isRecord(value)) fail('not a JSON object');
    const obj = value as Record<string, unknown>;
    if (typeof obj.scenario !== 'string' || !obj.scenario) fail('"scenario" must be a scenario id');
    if (!isRecord(obj.criteria)) fail('"criteria" must be an object');
    for (const [id, v] of Object.entries(obj.criteria as Record<string, unknown>)) {
      if (typeof v !== 'boolean') fail(`criterion "${id}" must be true (hit) or false`);
    }
    const sc = obj.silent_citations;
    if (sc !== undefined && sc !== null && !(typeof sc === 'number' && Number.isInteger(sc) && sc >= 0)) fail('"silent_citations" must be a whole number ≥ 0');
    const scenario = obj.scenario as string;
    const first = seen.get(scenario);
    if (first !== undefined) throw new InputError(displayName, `scenario "${scenario}" appears twice (first on line ${first})`, { line, column: 1 });
    seen.set(scenario, line);
    const result = { ...obj } as ResultLine;
    if (result.silent_citations === null) delete result.silent_citations;
    out.push({ value: result, raw, line });
  });
  return out;
}

/** The scenario's line with one criterion marked (true/false) or cleared (null). */
export function withCriterion(line: ResultLine | undefined, scenario: string, criterion: string, value: boolean | null): ResultLine | undefined {
  const next: ResultLine = { ...(line ?? { scenario, criteria: {} }), criteria: { ...(line?.criteria ?? {}) } };
  if (value === null) delete next.criteria[criterion];
  else next.criteria[criterion] = value;
  return isEmptyLine(next) ? undefined : next;
}

/** The scenario's line with its silent-citation count set, or cleared (null). */
export function withSilentCitations(line: ResultLine | undefined, scenario: string, value: number | null): ResultLine | undefined {
  const next: ResultLine = { ...(line ?? { scenario, criteria: {} }), criteria: { ...(line?.criteria ?? {}) } };
  if (value === null) delete next.silent_citations;
  else {
    if (!Number.isInteger(value) || value < 0) throw new Error('silent citations must be a whole number ≥ 0');
    next.silent_citations = value;
  }
  return isEmptyLine(next) ? undefined : next;
}

/** A line that says nothing: no criterion, no count, no other field. */
export function isEmptyLine(line: ResultLine): boolean {
  return (
    Object.keys(line.criteria).length === 0 &&
    line.silent_citations === undefined &&
    Object.keys(line).every((k) => k === 'scenario' || k === 'criteria' || k === 'silent_citations')
  );
}

export interface MergeInput {
  /** Lines on disk now. */
  disk: readonly ParsedLine[];
  /** The lines as this editor last read them, and as edited now, by scenario id. */
  base: ReadonlyMap<string, ResultLine>;
  current: ReadonlyMap<string, ResultLine>;
  /** Scenario ids in set order (new lines are appended in this order). */
  scenarioOrder: readonly string[];
  /** Criterion ids per scenario in set order (keys of an edited line follow it). */
  criterionOrder: ReadonlyMap<string, readonly string[]>;
}

export interface MergeOutput {
  text: string;
  /** `scenario#criterion` (or `scenario#silent_citations`) edited here and, differently, on disk. */
  conflicts: string[];
  changedScenarios: string[];
}

function orderedLine(line: ResultLine, order: readonly string[] | undefined): ResultLine {
  const criteria: Record<string, boolean> = {};
  for (const id of order ?? []) if (typeof line.criteria[id] === 'boolean') criteria[id] = line.criteria[id];
  for (const [id, v] of Object.entries(line.criteria)) if (!(id in criteria)) criteria[id] = v;
  const out: ResultLine = { scenario: line.scenario, criteria };
  if (line.silent_citations !== undefined) out.silent_citations = line.silent_citations;
  for (const [k, v] of Object.entries(line)) if (!(k in out) && v !== undefined) out[k] = v;
  return out;
}

/**
 * Applies this editor's changes (current vs base), criterion by criterion, onto the lines on
 * disk. Lines and fields nobody edited here are kept byte for byte.
 */
export function mergeResults(input: MergeInput): MergeOutput {
  const { disk, base, current } = input;
  const changed = [...new Set([...base.keys(), ...current.keys()])].filter((id) => !sameValue(base.get(id), current.get(id)));
  const conflicts: string[] = [];
  const edited = new Map<string, ResultLine | undefined>();
  const diskById = new Map(disk.map((l) => [l.value.scenario, l.value]));
  for (const id of changed) {
    const b = base.get(id);
    const c = current.get(id);
    const d = diskById.get(id);
    const next: ResultLine = { ...(d ?? { scenario: id, criteria: {} }), criteria: { ...(d?.criteria ?? {}) } };
    const criterionIds = new Set([...Object.keys(b?.criteria ?? {}), ...Object.keys(c?.criteria ?? {})]);
    for (const cid of criterionIds) {
      const bv = b?.criteria[cid];
      const cv = c?.criteria[cid];
      if (bv === cv) continue;
      const dv = d?.criteria[cid];
      if (dv !== bv && dv !== cv) conflicts.push(`${id}#${cid}`);
      if (cv === undefined) delete next.criteria[cid];
      else next.criteria[cid] = cv;
    }
    if (b?.silent_citations !== c?.silent_citations) {
      if (d?.silent_citations !== b?.silent_citations && d?.silent_citations !== c?.silent_citations) conflicts.push(`${id}#silent_citations`);
      if (c?.silent_citations === undefined) delete next.silent_citations;
      else next.silent_citations = c.silent_citations;
    }
    edited.set(id, isEmptyLine(next) ? undefined : orderedLine(next, input.criterionOrder.get(id)));
  }
  const out: string[] = [];
  for (const line of disk) {
    const id = line.value.scenario;
    if (!edited.has(id)) out.push(line.raw);
    else {
      const next = edited.get(id);
      if (next) out.push(JSON.stringify(next));
      edited.delete(id);
    }
  }
  const rest = [...edited.entries()].filter(([, v]) => v !== undefined) as [string, ResultLine][];
  const rank = new Map(input.scenarioOrder.map((id, i) => [id, i]));
  rest.sort(([a], [b]) => (rank.get(a) ?? Infinity) - (rank.get(b) ?? Infinity) || a.localeCompare(b));
  for (const [, line] of rest) out.push(JSON.stringify(line));
  return { text: out.length ? `${out.join('\n')}\n` : '', conflicts, changedScenarios: changed };
}
