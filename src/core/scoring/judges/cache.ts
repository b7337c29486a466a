// JudgmentCache: the run folder's `judgments.jsonl` read as a cache of judge verdicts.
//
// - Every line is one verdict of one judge for one item; a later line for the same item and judge
//   replaces an earlier one.
// - A line may carry `judge` (the judge id), `judge_identity` ({provider, model, prompt}: who
//   judged) and `input_sha256` (hash of what was judged). A model judge is served only its own
//   verdicts, so re-scoring with another model or prompt version asks that judge. A line without
//   `judge_identity` (written before identities were recorded, or by another tool) belongs to the
//   judge the run manifest names under `judge`, else to no judge: it is never served to a model
//   judge, since who made it is unknown. Without a model judge (offline scoring) an item's newest
//   verdict of any judge is used.
// - A line without a hash is trusted as is; a line whose hash differs from the current input (the
//   response changed) is stale and the item is judged again.
// - Fresh verdicts are appended one line at a time with a single write(2) on an O_APPEND
//   descriptor followed by fsync, so a crash leaves whole lines, and re-scoring never calls the
//   judge again for a verdict that was written.
import { closeSync, existsSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { readFileBytes } from '../../input/readText';
import type { z } from 'zod';
import { confinedWritePath, type WriteTarget } from '../../files/confine';
import { readJsonLinesIfAny } from '../jsonl';
import type { CacheLine } from './judge';
import { identityOfLine, judgeIdentityKey, type JudgeIdentity, type ManifestJudge } from './judgeIdentity';

export const JUDGMENTS_FILE = 'judgments.jsonl';

/** The labels one verdict gives, by unit (a rubric, a nugget, an answer item): what two judges' agreement is counted over. */
export type VerdictLabels = (line: CacheLine) => Record<string, string>;

export interface JudgmentCacheOptions {
  /** The run manifest's `judge`: the judge of lines that do not record one. */
  legacyJudge?: ManifestJudge;
  /** How a verdict reads as labels, for the two-judge agreement; without it no agreement is computed. */
  labelsOf?: VerdictLabels;
}

interface Entry {
  value: CacheLine;
  /** 1-based line number; 0 for lines appended now. */
  line: number;
  identity?: JudgeIdentity;
  /** File order, for "the newest verdict of any judge". */
  order: number;
}

/** The key of verdicts nobody claims (no `judge_identity`, no manifest judge). */
const UNATTRIBUTED = '';

export class JudgmentCache {
  /** item key → judge identity key → the newest verdict. */
  private readonly entries = new Map<string, Map<string, Entry>>();
  private order = 0;
  private needsNewline = false;
  /** Lines appended by this instance. */
  appended = 0;

  constructor(
    readonly file: string,
    readonly displayName: string,
    schema: z.ZodType<CacheLine>,
    what: string,
    private readonly keyOf: (line: CacheLine) => string | undefined,
    /** The run folder the cache belongs to: appends are refused when the file is outside it. */
    private readonly writeTarget?: WriteTarget,
    private readonly options: JudgmentCacheOptions = {},
  ) {
    for (const { value, line } of readJsonLinesIfAny(file, displayName, schema, what)) {
      const key = keyOf(value);
      if (key === undefined) continue;
      this.put(key, { value, line, identity: identityOfLine(value, options.legacyJudge, { file: displayName, line }), order: 0 });
    }
    if (existsSync(file)) {
      const bytes = readFileBytes(file, displayName);
      this.needsNewline = bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a;
    }
  }

  private put(key: string, entry: Entry): void {
    let byJudge = this.entries.get(key);
    if (!byJudge) this.entries.set(key, (byJudge = new Map()));
    const judgeKey = entry.identity ? judgeIdentityKey(entry.identity) : UNATTRIBUTED;
    // Re-inserted so that iteration order stays file order (the newest verdict last).
    byJudge.delete(judgeKey);
    byJudge.set(judgeKey, { ...entry, order: this.order++ });
  }

  /** Items with at least one cached verdict. */
  get size(): number {
    return this.entries.size;
  }

  private newest(key: string, usable: (e: Entry) => boolean = () => true): Entry | undefined {
    let best: Entry | undefined;
    for (const e of this.entries.get(key)?.values() ?? []) if (usable(e) && (!best || e.order > best.order)) best = e;
    return best;
  }

  /** One line per item, its newest verdict of any judge, with its key and 1-based line number (0 for lines appended now). */
  lines(): { key: string; value: CacheLine; line: number }[] {
    return [...this.entries.keys()].map((key) => {
      const e = this.newest(key) as Entry;
      return { key, value: e.value, line: e.line };
    });
  }

  /**
   * The cached verdict for a key, unless it was made for another input. With a judge identity, only
   * that judge's verdict; without one (no model judge), the item's newest usable verdict of any judge.
   */
  lookup(key: string, inputHash: string, identity?: JudgeIdentity): CacheLine | undefined {
    const fresh = (e: Entry) => typeof e.value.input_sha256 !== 'string' || e.value.input_sha256 === inputHash;
    const entry = identity ? this.entries.get(key)?.get(judgeIdentityKey(identity)) : this.newest(key, fresh);
    return entry && fresh(entry) ? entry.value : undefined;
  }

  /**
   * Every attributed verdict as labels, by judge identity key then by unit (the item key and the
   * label's own unit), each with the hash of the input it was made for, if the line says.
   */
  labelsByJudge(): Map<string, Map<string, { label: string; inputHash?: string }>> {
    const result = new Map<string, Map<string, { label: string; inputHash?: string }>>();
    const labelsOf = this.options.labelsOf;
    if (!labelsOf) return result;
    for (const [key, byJudge] of this.entries) {
      for (const [judgeKey, e] of byJudge) {
        if (judgeKey === UNATTRIBUTED) continue;
        let labels = result.get(judgeKey);
        if (!labels) result.set(judgeKey, (labels = new Map()));
        const hash = e.value.input_sha256;
        for (const [unit, label] of Object.entries(labelsOf(e.value)))
          labels.set(`${key}\u0000${unit}`, typeof hash === 'string' ? { label, inputHash: hash } : { label });
      }
    }
    return result;
  }

  /** Throws an InputError when fresh verdicts could not be appended without writing outside the run folder. */
  checkWritable(): void {
    if (this.writeTarget) confinedWritePath(this.file, this.writeTarget);
  }

  /** Appends one verdict atomically (one write of one whole line) and makes it visible to lookups. */
  append(key: string, line: CacheLine, identity?: JudgeIdentity): void {
    this.checkWritable();
    const text = `${this.needsNewline ? '\n' : ''}${JSON.stringify(line)}\n`;
    const fd = openSync(this.file, 'a', 0o644);
    try {
      writeSync(fd, Buffer.from(text, 'utf8'));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    this.needsNewline = false;
    this.appended++;
    this.put(this.keyOf(line) ?? key, { value: line, line: 0, identity, order: 0 });
  }
}
