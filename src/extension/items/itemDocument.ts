import { existsSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { readUriBytes } from '../uriFiles';
import { InputError } from '../../core/input/inputError';
import { problemLine } from '../../core/input/inputError';
import { decodeText } from '../../core/input/readText';
import type { DelegationItem, ScenarioSet } from '../../core/items/schemas';
import { loadText, type LoadedFile } from '../../core/load/loadFile';
import type { LoadedRecord } from '../../core/load/loadRecord';
import type { Sidecar } from '../../core/sidecar/schema';
import { emptySidecar, parseSidecar, sha256Of, sidecarPathFor, writeSidecar } from '../../core/sidecar/sidecarFile';
import type { ItemViewKind, ReviewData } from '../../shared/itemProtocol';
import { EditState, sameValue, type ItemBackup } from '../../core/editing/itemEdits';
import { allReviewsInSidecar, applyReviewChanges, canonicalReview, parseReviewKey, reviewKey, type ReviewChange } from '../../core/items/blindReviews';
import { defaultRunFolder, readRunFolder, resultsById, saveRunFolder, type RunFolderState } from '../../core/items/scenarioRunFolder';
import type { ResultLine } from '../../core/items/scenarioResults';

export type ItemChange = { kind: 'review'; itemId: string } | { kind: 'results'; scenarioId?: string } | { kind: 'reloaded' };

const KIND_OF: Record<string, ItemViewKind> = {
  'delegation-item': 'delegation',
  deepsearchqa: 'deepsearchqa',
  'clarify-instance': 'clarify',
  'scenario-set': 'scenarios',
};

export const KIND_LABEL: Record<ItemViewKind, string> = {
  delegation: 'Delegation items',
  deepsearchqa: 'DeepSearchQA',
  clarify: 'Clarify-Then-Search',
  scenarios: 'Scenario set',
};

/** Asked before overwriting judgments someone else changed on disk; false cancels the save. */
export type ConfirmOverwrite = (message: string) => Promise<boolean>;

const resultKey = (scenarioId: string) => `result\u0000${scenarioId}`;

/**
 * A benchmark-item file (never written) plus the judgments made on it: blind reviews of
 * Delegation items (saved into `<file>.audit.json`) or the marks of a scenario set (saved into
 * the `results.jsonl` of a run folder).
 */
export class ItemDocument implements vscode.CustomDocument {
  private readonly changed = new vscode.EventEmitter<ItemChange>();
  readonly onDidChange = this.changed.event;
  private readonly disposed = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposed.event;
  readonly state = new EditState();
  /** Delegation: the sidecar text last read or written, and its problem if it is broken. */
  private sidecarText: string | undefined;
  sidecarProblem: string | undefined;
  /** Scenario sets: the run folder in use. */
  run: RunFolderState | undefined;

  private constructor(
    readonly uri: vscode.Uri,
    readonly loaded: LoadedFile,
    readonly kind: ItemViewKind,
    readonly sha256: string,
  ) {}

  static async open(uri: vscode.Uri, options: { backup?: ItemBackup; runFolder?: vscode.Uri } = {}): Promise<ItemDocument> {
    const bytes = await readUriBytes(uri);
    const displayName = vscode.workspace.asRelativePath(uri);
    const loaded = loadText(decodeText(bytes, displayName), displayName);
    const kind = KIND_OF[loaded.detection.kind];
    if (!kind) {
      throw new InputError(
        displayName,
        `is a ${loaded.detection.kind}, not a benchmark item (${loaded.detection.reason}); open it with "Open in Trajectory Auditor"`,
      );
    }
    const document = new ItemDocument(uri, loaded, kind, sha256Of(bytes));
    if (kind === 'delegation') document.readSidecar();
    if (kind === 'scenarios') {
      const folder = options.backup?.runFolder
        ? vscode.Uri.parse(options.backup.runFolder).fsPath
        : (options.runFolder?.fsPath ?? defaultRunFolder(uri.fsPath));
      document.readRun(folder);
    }
    if (options.backup) document.state.restore(options.backup.entries);
    return document;
  }

  get isDirty(): boolean {
    return this.state.isDirty;
  }

  /** Records of the file's kind (a mixed file's other records are listed as problems). */
  get records(): LoadedRecord[] {
    return this.loaded.records.filter((r) => KIND_OF[r.kind] === this.kind);
  }

  problems(): string[] {
    const out = this.loaded.problems.map(problemLine);
    const others = this.loaded.records.filter((r) => KIND_OF[r.kind] !== this.kind);
    if (others.length) out.push(`${others.length} record(s) of another kind are not shown (${[...new Set(others.map((r) => r.kind))].join(', ')})`);
    const seen = new Set<string>();
    const dupes = new Set<string>();
    for (const r of this.records) (seen.has(r.id) ? dupes : seen).add(r.id);
    if (dupes.size) out.push(`item id(s) used more than once: ${[...dupes].join(', ')}; only the first of each is shown, and judgments are saved per id`);
    return out;
  }

  display(path: string): string {
    return vscode.workspace.asRelativePath(vscode.Uri.file(path));
  }

  // ── Delegation items: blind reviews in the sidecar ──────────────────────────────────────

  get sidecarUri(): vscode.Uri {
    return vscode.Uri.file(sidecarPathFor(this.uri.fsPath));
  }

  delegationItems(): { id: string; item: DelegationItem }[] {
    return this.records.flatMap((r) => (r.kind === 'delegation-item' ? [{ id: r.id, item: r.item }] : []));
  }

  item(id: string): DelegationItem | undefined {
    return this.delegationItems().find((r) => r.id === id)?.item;
  }

  private readSidecarText(): string | undefined {
    const path = this.sidecarUri.fsPath;
    return existsSync(path) ? decodeText(readFileSync(path), this.display(path)) : undefined;
  }

  private parseSidecarText(text: string | undefined): Sidecar | undefined {
    return text === undefined ? undefined : parseSidecar(text, this.display(this.sidecarUri.fsPath));
  }

  /** Reads the reviews on disk into the saved state. A broken sidecar makes the view read-only. */
  private readSidecar(): void {
    this.sidecarProblem = undefined;
    let sidecar: Sidecar | undefined;
    try {
      this.sidecarText = this.readSidecarText();
      sidecar = this.parseSidecarText(this.sidecarText);
    } catch (error) {
      this.sidecarProblem = error instanceof Error ? error.message : String(error);
    }
    const entries: [string, unknown][] = [];
    for (const [id, reviews] of allReviewsInSidecar(sidecar)) {
      for (const review of reviews) entries.push([reviewKey(id, review.annotator), canonicalReview(review)]);
    }
    this.state.reset(entries);
  }

  review(itemId: string, annotator: string): ReviewData | undefined {
    return this.state.get(reviewKey(itemId, annotator)) as ReviewData | undefined;
  }

  /** Every review of an item (saved and unsaved), in annotator order. */
  reviews(itemId: string): ReviewData[] {
    return this.state
      .keys()
      .map((k) => ({ k, parsed: parseReviewKey(k) }))
      .filter(({ parsed }) => parsed?.itemId === itemId)
      .sort((a, b) => a.parsed!.annotator.localeCompare(b.parsed!.annotator))
      .map(({ k }) => this.state.get(k) as ReviewData);
  }

  /** Replaces an annotator's review of an item; returns the previous one (for undo). */
  setReview(itemId: string, annotator: string, review: ReviewData | undefined): ReviewData | undefined {
    if (this.kind !== 'delegation') throw new Error('reviews are recorded on Delegation items only');
    if (!this.item(itemId)) throw new Error(`no item "${itemId}" in ${this.loaded.file}`);
    const before = this.state.set(reviewKey(itemId, annotator), review) as ReviewData | undefined;
    this.changed.fire({ kind: 'review', itemId });
    return before;
  }

  private async saveReviews(confirm: ConfirmOverwrite): Promise<void> {
    if (this.sidecarProblem) throw new Error(`${this.sidecarProblem} — fix or move the sidecar before saving; it was not overwritten`);
    const changedKeys = this.state.changedKeys();
    let diskText = this.readSidecarText();
    if (diskText !== this.sidecarText) {
      const disk = this.parseSidecarText(diskText);
      const onDisk = allReviewsInSidecar(disk);
      const conflicts = changedKeys.filter((key) => {
        const { itemId, annotator } = parseReviewKey(key)!;
        const now = onDisk.get(itemId)?.find((r) => r.annotator === annotator);
        return !sameValue(now ? canonicalReview(now) : undefined, this.state.getBase(key));
      });
      if (conflicts.length) {
        const who = conflicts
          .map((k) => parseReviewKey(k)!)
          .map((p) => `${p.annotator} on ${p.itemId}`)
          .join(', ');
        const ok = await confirm(
          `${vscode.workspace.asRelativePath(this.sidecarUri)} changed on disk since you opened it, and the review of ${who} differs there. Overwrite it with yours?`,
        );
        if (!ok) throw new Error('Save cancelled: the review file changed on disk. Revert to load it, or save again to overwrite.');
        diskText = this.readSidecarText();
      }
    }
    const next = this.parseSidecarText(diskText) ?? emptySidecar(this.uri.fsPath, this.sha256, this.loaded.detection.kind);
    next.trajectory = { ...next.trajectory, sha256: this.sha256, format: this.loaded.detection.kind };
    const changes: ReviewChange[] = changedKeys.map((key) => ({ ...parseReviewKey(key)!, review: this.state.get(key) as ReviewData | undefined }));
    applyReviewChanges(next, changes);
    writeSidecar(this.sidecarUri.fsPath, next);
    this.readSidecar();
  }

  // ── Scenario sets: marks in a run folder's results.jsonl ────────────────────────────────

  scenarioSet(): ScenarioSet | undefined {
    const r = this.records[0];
    return r?.kind === 'scenario-set' ? r.scenarioSet : undefined;
  }

  /** The file whose outside changes should reload this document's judgments. */
  get judgmentFile(): vscode.Uri | undefined {
    if (this.kind === 'delegation') return this.sidecarUri;
    if (this.kind === 'scenarios' && this.run) return vscode.Uri.file(this.run.resultsPath);
    return undefined;
  }

  get runFolderUri(): vscode.Uri | undefined {
    return this.run ? vscode.Uri.file(this.run.folder) : undefined;
  }

  private readRun(folder: string): void {
    this.run = readRunFolder(folder, this.uri.fsPath, (p) => this.display(p));
    this.state.reset([...resultsById(this.run.lines)].map(([id, line]) => [resultKey(id), line]));
  }

  result(scenarioId: string): ResultLine | undefined {
    return this.state.get(resultKey(scenarioId)) as ResultLine | undefined;
  }

  /** Every scenario's current line. */
  results(): Map<string, ResultLine> {
    const out = new Map<string, ResultLine>();
    for (const s of this.scenarioSet()?.scenarios ?? []) {
      const line = this.result(s.id);
      if (line) out.set(s.id, line);
    }
    return out;
  }

  changedScenarios(): string[] {
    return this.state
      .changedKeys()
      .filter((k) => k.startsWith('result\u0000'))
      .map((k) => k.slice('result\u0000'.length));
  }

  /** Replaces a scenario's results line; returns the previous one (for undo). */
  setResult(scenarioId: string, line: ResultLine | undefined): ResultLine | undefined {
    const set = this.scenarioSet();
    if (!set) throw new Error('results are recorded on scenario sets only');
    if (!set.scenarios.some((s) => s.id === scenarioId)) throw new Error(`no scenario "${scenarioId}" in ${this.loaded.file}`);
    const before = this.state.set(resultKey(scenarioId), line) as ResultLine | undefined;
    this.changed.fire({ kind: 'results', scenarioId });
    return before;
  }

  /** Switches the run folder; refused with unsaved marks (they belong to the folder they were made for). */
  setRunFolder(folder: vscode.Uri): void {
    if (this.kind !== 'scenarios') throw new Error('only scenario sets have a run folder');
    if (this.isDirty) throw new Error('Save or revert your marks before choosing another run folder.');
    this.readRun(folder.fsPath);
    this.changed.fire({ kind: 'reloaded' });
  }

  private async saveResults(confirm: ConfirmOverwrite): Promise<void> {
    const set = this.scenarioSet();
    if (!set || !this.run) return;
    const base = new Map<string, ResultLine>();
    const current = new Map<string, ResultLine>();
    for (const s of set.scenarios) {
      const b = this.state.getBase(resultKey(s.id)) as ResultLine | undefined;
      const c = this.state.get(resultKey(s.id)) as ResultLine | undefined;
      if (b) base.set(s.id, b);
      if (c) current.set(s.id, c);
    }
    const outcome = await saveRunFolder(
      this.run,
      this.uri.fsPath,
      {
        base,
        current,
        scenarioOrder: set.scenarios.map((s) => s.id),
        criterionOrder: new Map(set.scenarios.map((s) => [s.id, s.criteria.map((c) => c.id)])),
      },
      (p) => this.display(p),
      (conflicts) =>
        confirm(
          `${this.display(this.run!.resultsPath)} changed on disk since you opened it, and ${conflicts.join(', ')} differ there. Overwrite them with your marks?`,
        ),
    );
    if (!outcome) throw new Error('Save cancelled: the results file changed on disk. Revert to load it, or save again to overwrite.');
    this.readRun(this.run.folder);
  }

  // ── common ──────────────────────────────────────────────────────────────────────────────

  async save(confirm: ConfirmOverwrite): Promise<void> {
    if (this.kind === 'delegation') await this.saveReviews(confirm);
    else if (this.kind === 'scenarios') await this.saveResults(confirm);
  }

  /** Back to what is on disk. */
  async revert(): Promise<void> {
    if (this.kind === 'delegation') this.readSidecar();
    else if (this.kind === 'scenarios' && this.run) this.readRun(this.run.folder);
    this.changed.fire({ kind: 'reloaded' });
  }

  backup(): ItemBackup {
    const backup: ItemBackup = { schema: 'trajaudit.items-backup/v1', entries: this.state.backupEntries() };
    if (this.run) backup.runFolder = vscode.Uri.file(this.run.folder).toString();
    return backup;
  }

  dispose(): void {
    this.disposed.fire();
    this.changed.dispose();
    this.disposed.dispose();
  }
}
