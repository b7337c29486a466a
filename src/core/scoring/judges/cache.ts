// JudgmentCache: the run folder's `judgments.jsonl` read as a cache of judge verdicts.
//
// - Every line is one verdict; a later line for the same key replaces an earlier one.
// - A line may carry `judge` (the judge id) and `input_sha256` (hash of what was judged). A line
//   without a hash — e.g. judgments written by another tool — is trusted as is; a line whose hash
//   differs from the current input (the response changed) is stale and the item is judged again.
// - Fresh verdicts are appended one line at a time with a single write(2) on an O_APPEND
//   descriptor followed by fsync, so a crash leaves whole lines, and re-scoring never calls the
//   judge again for a verdict that was written.
import { closeSync, existsSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { readFileBytes } from '../../input/readText';
import type { z } from 'zod';
import { confinedWritePath, type WriteTarget } from '../../files/confine';
import { readJsonLinesIfAny } from '../jsonl';
import type { CacheLine } from './judge';

export const JUDGMENTS_FILE = 'judgments.jsonl';

export class JudgmentCache {
  private readonly entries = new Map<string, CacheLine>();
  private readonly lineNumbers = new Map<string, number>();
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
  ) {
    for (const { value, line } of readJsonLinesIfAny(file, displayName, schema, what)) {
      const key = keyOf(value);
      if (key === undefined) continue;
      this.entries.set(key, value);
      this.lineNumbers.set(key, line);
    }
    if (existsSync(file)) {
      const bytes = readFileBytes(file, displayName);
      this.needsNewline = bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a;
    }
  }

  get size(): number {
    return this.entries.size;
  }

  /** All current lines (latest per key) with their keys and 1-based line numbers (0 for lines appended now). */
  lines(): { key: string; value: CacheLine; line: number }[] {
    return [...this.entries].map(([key, value]) => ({ key, value, line: this.lineNumbers.get(key) ?? 0 }));
  }

  /** The cached verdict for a key, unless it was made for another input. */
  lookup(key: string, inputHash: string): CacheLine | undefined {
    const line = this.entries.get(key);
    if (!line) return undefined;
    const hash = line.input_sha256;
    if (typeof hash === 'string' && hash !== inputHash) return undefined;
    return line;
  }

  /** Throws an InputError when fresh verdicts could not be appended without writing outside the run folder. */
  checkWritable(): void {
    if (this.writeTarget) confinedWritePath(this.file, this.writeTarget);
  }

  /** Appends one verdict atomically (one write of one whole line) and makes it visible to lookups. */
  append(key: string, line: CacheLine): void {
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
    const k = this.keyOf(line) ?? key;
    this.entries.set(k, line);
    this.lineNumbers.delete(k);
  }
}
