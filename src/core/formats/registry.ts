// The trajectory formats, one reader module each (docs/formats.md §1). Detection asks every
// reader how well a value fits it and takes the clear winner; it never silently picks a reader
// whose key fields are missing, or one of two that fit equally.
import type { SourceText } from '../input/schemaCheck';
import type { Trajectory, TrajectoryFormat } from '../model/trajectory';
import { anthropicReader } from './anthropic';
import { camelReader } from './camel';
import { atifReader } from './atif';
import { claudeCodeReader } from './claudeCode';
import { codexReader } from './codex';
import { geminiCliReader } from './geminiCli';
import { inspectReader } from './inspect';
import { langSmithReader } from './langsmith';
import { magenticOneReader } from './magenticOne';
import { openHandsReader } from './openhands';
import { otelReader } from './otel';
import { openAiAgentsReader } from './openaiAgents';
import { openAiChatReader } from './openaiChat';
import { miniSweAgentReader, sweAgentReader } from './sweAgent';
import { searchAuditBenchReader } from './searchAuditBench';
import { smolagentsReader } from './smolagents';
import { tauBenchReader } from './tauBench';
import { tongyiReader } from './tongyi';
import { whoAndWhenReader } from './whoAndWhen';

/** How well one JSON value fits a format. */
export interface FormatMatch {
  /**
   * 0–1. At least FULL_MATCH: the format's key fields are all there and the reader can load it;
   * higher means more specific evidence (a `schema_version` beats "has `messages`"). Below
   * FULL_MATCH: it looks like the format but cannot be read as it (`missing` says why).
   */
  score: number;
  /** For the user: what was seen ("an object with `history` and `mistake_step`"). */
  reason: string;
  /** Key fields of the format that are absent or of the wrong shape, as JSON paths or names. */
  missing?: string[];
}

export const FULL_MATCH = 0.5;
/** Two full matches closer than this are ambiguous: the user must choose with --format. */
export const AMBIGUITY_MARGIN = 0.1;

/** One trajectory in a multi-record source (an Inspect log's sample, an OTLP export's trace). */
export interface SplitRecord {
  id: string;
  value: unknown;
  /** JSON path of the record's value inside the source, for messages and positions. */
  path: (string | number)[];
}

export interface TrajectoryReader {
  id: TrajectoryFormat;
  /** Human name for messages and pickers ("SWE-agent .traj"). */
  label: string;
  /** How well one JSON value (an object, or an array) fits; undefined when nothing of the format is seen. */
  detect(value: unknown): FormatMatch | undefined;
  /** One trajectory from a value `detect` matched (or the user forced with --format). */
  load(value: unknown, source: SourceText, id: string): Trajectory;
  /**
   * For sources holding many trajectories in one JSON value (Inspect log samples × epochs, OTLP
   * traces, an OpenHands event list is NOT one of them): the records, each loaded with `load`.
   */
  split?(value: unknown): SplitRecord[];
  /**
   * For JSONL files whose lines together make trajectories (a Claude Code or Codex session is one
   * trajectory; a JSONL of spans is one per trace): how well all the parsed lines fit.
   */
  detectLines?(values: unknown[]): FormatMatch | undefined;
  /**
   * The trajectory as a value of this format (`trajaudit convert`), message i still message i;
   * `lost` names, one entry each, what the format cannot hold.
   */
  write?(trajectory: Trajectory): { value: unknown; lost: string[] };
  /**
   * The trajectories of a JSONL file `detectLines` matched; message i is line i of the record's
   * lines. `values` is the loading pipeline's own list, not used after: a reader may clear the
   * entries it has read, so a parsed line it no longer needs is not kept for the whole load.
   */
  loadLines?(values: unknown[], lineNumbers: number[], source: SourceText): LinesRecord[];
  /**
   * Optional, for a session reader whose lines can be read one at a time: the loading pipeline
   * hands it each parsed line and drops it, so the line's tree dies young instead of being kept
   * (and copied by every scavenge) for the whole load. The pipeline then chooses the reader by
   * the first DETECTION_LINES lines; `read` refuses, naming the line, one not of the format.
   */
  lineReader?(source: SourceText): LineReader;
}

/** One trajectory of a JSONL file read by lines; `line` is its first line. */
export interface LinesRecord {
  id: string;
  trajectory: Trajectory;
  line: number;
}

export interface LineReader {
  read(value: unknown, lineNumber: number): void;
  finish(): LinesRecord[];
}

/** How many parsed lines choose a reader that reads line by line (`lineReader`). */
export const DETECTION_LINES = 64;

/** Every reader; order only breaks exact ties. */
export const TRAJECTORY_READERS: readonly TrajectoryReader[] = [
  searchAuditBenchReader,
  whoAndWhenReader,
  tongyiReader,
  anthropicReader,
  claudeCodeReader,
  codexReader,
  geminiCliReader,
  inspectReader,
  atifReader,
  openHandsReader,
  sweAgentReader,
  miniSweAgentReader,
  magenticOneReader,
  tauBenchReader,
  otelReader,
  langSmithReader,
  camelReader,
  smolagentsReader,
  openAiAgentsReader,
  openAiChatReader,
];

export function readerFor(id: TrajectoryFormat): TrajectoryReader | undefined {
  return TRAJECTORY_READERS.find((reader) => reader.id === id);
}

export interface RankedMatch extends FormatMatch {
  reader: TrajectoryReader;
}

/** Every reader's match for a value, best first (readers that saw nothing of theirs are left out). */
export function rankFormats(value: unknown): RankedMatch[] {
  const ranked: RankedMatch[] = [];
  for (const reader of TRAJECTORY_READERS) {
    const match = reader.detect(value);
    if (match) ranked.push({ ...match, reader });
  }
  return ranked.sort((a, b) => b.score - a.score);
}

/** Every session reader's match for the parsed lines of a JSONL file, best first. */
export function rankLineFormats(values: unknown[]): RankedMatch[] {
  const ranked: RankedMatch[] = [];
  for (const reader of TRAJECTORY_READERS) {
    const match = reader.detectLines?.(values);
    if (match) ranked.push({ ...match, reader });
  }
  return ranked.sort((a, b) => b.score - a.score);
}

export type Verdict =
  | { kind: 'reader'; match: RankedMatch }
  | { kind: 'ambiguous'; matches: [RankedMatch, RankedMatch] }
  | { kind: 'incomplete'; match: RankedMatch }
  | { kind: 'none' };

/** The decision over a ranking: a clear full match, two that tie, a near miss, or nothing. */
export function decide(ranked: RankedMatch[]): Verdict {
  const [best, second] = ranked;
  if (!best) return { kind: 'none' };
  if (best.score < FULL_MATCH) return { kind: 'incomplete', match: best };
  if (second && second.score >= FULL_MATCH && best.score - second.score < AMBIGUITY_MARGIN) return { kind: 'ambiguous', matches: [best, second] };
  return { kind: 'reader', match: best };
}
