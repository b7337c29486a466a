import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { isFileNotFound, readUriBytes } from '../uriFiles';
import { InputError } from '../../core/input/inputError';
import { decodeText } from '../../core/input/readText';
import { loadBytes, type LoadedFile } from '../../core/load/loadFile';
import type { TrajectoryFormat } from '../../core/model/trajectory';
import { isTrajectoryRecord, type TrajectoryRecord } from '../../core/load/loadRecord';
import { annotationSchema, type Sidecar } from '../../core/sidecar/schema';
import {
  emptySidecar,
  parseSidecar,
  refuseLinkedSidecar,
  serializeSidecar,
  sha256Of,
  sidecarPathFor,
  updateSidecar,
  writeSidecar,
} from '../../core/sidecar/sidecarFile';
import type { AnnotationData, AuditData } from '../../shared/protocol';
import { backupOf, changedRecords, sameAnnotation, type AnnotationBackup, type AnnotationMap } from '../../core/editing/annotationEdits';

export type DocumentChange = { kind: 'annotation'; recordId: string } | { kind: 'audits'; recordId?: string } | { kind: 'reloaded' };

/**
 * The editor's document: a trajectory file (never written) plus its annotations. Edits change
 * only the in-memory annotations; save writes the `.audit.json` sidecar atomically.
 */
export class TrajectoryDocument implements vscode.CustomDocument {
  private readonly changed = new vscode.EventEmitter<DocumentChange>();
  readonly onDidChange = this.changed.event;
  private readonly disposed = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposed.event;
  /** The sidecar as last read from or written to disk (its text, to notice outside changes). */
  private diskText: string | undefined;
  private diskSidecar: Sidecar | undefined;
  /** Annotations as on disk (the saved state) and as edited. */
  private base: AnnotationMap = new Map();
  private current: AnnotationMap = new Map();
  /** Problem with the sidecar on disk, shown instead of silently ignoring it. */
  sidecarProblem: string | undefined;

  private constructor(
    readonly uri: vscode.Uri,
    readonly loaded: LoadedFile,
    private bytes: Uint8Array | undefined,
  ) {}

  private sha: string | undefined;

  /**
   * sha256 of the bytes the editor loaded. Kept off the open path (a 120 MB file takes ~0.3 s):
   * hashed in slices after the editor shows, or at once if a save needs it first.
   */
  get trajectorySha256(): string {
    if (this.sha === undefined) {
      this.sha = sha256Of(this.bytes ?? new Uint8Array());
      this.bytes = undefined;
    }
    return this.sha;
  }

  private hashInBackground(): void {
    const bytes = this.bytes;
    if (!bytes || this.sha !== undefined) return;
    const hash = createHash('sha256');
    const slice = 8 * 1024 * 1024;
    const step = (offset: number) => {
      if (this.sha !== undefined) return;
      hash.update(bytes.subarray(offset, offset + slice));
      if (offset + slice < bytes.length) setTimeout(() => step(offset + slice), 0);
      else {
        this.sha = hash.digest('hex');
        this.bytes = undefined;
      }
    };
    step(0);
  }

  /** `format`: the reader the user chose ("Reopen as format…"); detection otherwise. */
  static async open(uri: vscode.Uri, backup?: AnnotationBackup, format?: TrajectoryFormat): Promise<TrajectoryDocument> {
    const bytes = await readUriBytes(uri);
    const displayName = vscode.workspace.asRelativePath(uri);
    const loaded = loadBytes(bytes, displayName, { format });
    if (!loaded.records.some(isTrajectoryRecord)) {
      throw new InputError(displayName, `is a ${loaded.detection.kind}, not a trajectory (${loaded.detection.reason})`);
    }
    const document = new TrajectoryDocument(uri, loaded, bytes);
    setTimeout(() => document.hashInBackground(), 1500);
    await document.readSidecarFromDisk();
    document.current = new Map(document.base);
    if (backup) for (const [id, a] of Object.entries(backup.annotations)) document.current.set(id, a ?? undefined);
    return document;
  }

  get sidecarUri(): vscode.Uri {
    return this.uri.with({ path: sidecarPathFor(this.uri.path) });
  }

  get trajectoryRecords(): TrajectoryRecord[] {
    return this.loaded.records.filter(isTrajectoryRecord);
  }

  record(id: string): TrajectoryRecord | undefined {
    return this.trajectoryRecords.find((r) => r.id === id);
  }

  annotation(recordId: string): AnnotationData | undefined {
    return this.current.get(recordId);
  }

  audits(recordId: string): AuditData[] {
    return this.diskSidecar?.records[recordId]?.audits ?? [];
  }

  get isDirty(): boolean {
    return changedRecords(this.current, this.base).length > 0;
  }

  /** Replaces a record's annotation (validated); returns the previous one for undo. */
  setAnnotation(recordId: string, annotation: AnnotationData | undefined): AnnotationData | undefined {
    if (!this.record(recordId)) throw new Error(`no record "${recordId}" in ${this.loaded.file}`);
    if (annotation) annotationSchema.parse(annotation);
    const before = this.current.get(recordId);
    this.current.set(recordId, annotation);
    this.changed.fire({ kind: 'annotation', recordId });
    return before;
  }

  /**
   * The annotation was made against other trajectory content than the file now holds (its
   * `trajectorySha256` differs): shown until a person saves it again or confirms it
   * (`trajaudit validate --accept-content`). Hashes the file only for an annotated record.
   */
  annotationOutdated(recordId: string): boolean {
    const annotation = this.current.get(recordId);
    // An edit made in the webview may not carry the field: it is still the saved annotation's until saved.
    const madeAgainst = annotation ? (annotation.trajectorySha256 ?? this.base.get(recordId)?.trajectorySha256) : undefined;
    return typeof madeAgainst === 'string' && madeAgainst !== this.trajectorySha256;
  }

  private async readDiskText(): Promise<string | undefined> {
    try {
      if (this.sidecarUri.scheme === 'file') refuseLinkedSidecar(this.sidecarUri.fsPath, vscode.workspace.asRelativePath(this.sidecarUri));
      const bytes = await readUriBytes(this.sidecarUri);
      return decodeText(bytes, vscode.workspace.asRelativePath(this.sidecarUri));
    } catch (error) {
      if (isFileNotFound(error)) return undefined;
      if (error instanceof InputError) throw error;
      return undefined;
    }
  }

  /** Reads the sidecar into the saved state. A bad sidecar is reported, never overwritten blindly. */
  async readSidecarFromDisk(): Promise<void> {
    this.sidecarProblem = undefined;
    let text: string | undefined;
    try {
      text = await this.readDiskText();
      this.diskSidecar = text === undefined ? undefined : parseSidecar(text, vscode.workspace.asRelativePath(this.sidecarUri));
    } catch (error) {
      this.sidecarProblem = error instanceof Error ? error.message : String(error);
      this.diskSidecar = undefined;
    }
    this.diskText = text;
    this.base = new Map();
    for (const [id, record] of Object.entries(this.diskSidecar?.records ?? {})) {
      if (record.annotation) this.base.set(id, record.annotation);
    }
  }

  /** Whether the sidecar on disk differs from what this document last read or wrote. */
  async diskChangedSinceRead(): Promise<boolean> {
    return (await this.readDiskText()) !== this.diskText;
  }

  /** Records whose annotation on disk was changed by someone else since we read it. */
  async conflictingRecords(): Promise<string[]> {
    const text = await this.readDiskText();
    if (text === this.diskText) return [];
    let disk: Sidecar | undefined;
    try {
      disk = text === undefined ? undefined : parseSidecar(text, 'sidecar');
    } catch {
      return changedRecords(this.current, this.base);
    }
    return changedRecords(this.current, this.base).filter((id) => !sameAnnotation(disk?.records[id]?.annotation ?? undefined, this.base.get(id)));
  }

  /**
   * Writes the edited annotations into the sidecar on disk: re-read, merged and written under
   * the sidecar's lock (so audits and records written by others meanwhile, in any process, are
   * kept), atomically. A saved annotation is stamped with the trajectory it was made against.
   */
  async save(target: vscode.Uri = this.sidecarUri): Promise<void> {
    const own = target.toString() === this.sidecarUri.toString();
    if (this.sidecarProblem && own) {
      throw new Error(`${this.sidecarProblem} — fix or move the sidecar before saving; it was not overwritten`);
    }
    const sha = this.trajectorySha256;
    const changed = changedRecords(this.current, this.base);
    const stamped = new Map(this.current);
    for (const id of changed) {
      const annotation = this.current.get(id);
      if (annotation) stamped.set(id, { ...annotation, trajectorySha256: sha });
    }
    const merge = (disk: Sidecar | undefined): Sidecar => {
      const next: Sidecar = disk ?? emptySidecar(this.uri.path, sha, this.loaded.detection.kind);
      next.trajectory = { ...next.trajectory, sha256: sha, format: this.loaded.detection.kind };
      for (const id of changed) {
        const annotation = stamped.get(id);
        const record = { ...(next.records[id] ?? {}) };
        if (annotation) record.annotation = annotation as typeof record.annotation;
        else delete record.annotation;
        next.records[id] = record;
      }
      return next;
    };
    const displayName = vscode.workspace.asRelativePath(target);
    const written = own ? (await updateSidecar(target.fsPath, merge, { displayName }))! : writeSidecar(target.fsPath, merge(undefined), { displayName });
    if (own) {
      this.diskText = serializeSidecar(written);
      this.diskSidecar = written;
      this.current = stamped;
      this.base = new Map(stamped);
      // The record list carries the outdated-annotation flags; saving cleared the saved ones.
      this.changed.fire({ kind: 'audits' });
    }
  }

  /** Back to the saved state (after re-reading the disk). */
  async revert(): Promise<void> {
    await this.readSidecarFromDisk();
    this.current = new Map(this.base);
    this.changed.fire({ kind: 'reloaded' });
  }

  /** Refreshes audits (written by the audit engine) without touching unsaved annotations. */
  async refreshAuditsFromDisk(): Promise<void> {
    const text = await this.readDiskText();
    try {
      const disk = text === undefined ? undefined : parseSidecar(text, 'sidecar');
      if (this.diskSidecar && disk)
        for (const [id, r] of Object.entries(disk.records)) {
          this.diskSidecar.records[id] = { ...(this.diskSidecar.records[id] ?? {}), audits: r.audits };
        }
      else this.diskSidecar = disk;
    } catch {
      /* a broken sidecar shows up on the next full read */
    }
    this.changed.fire({ kind: 'audits' });
  }

  backup(): AnnotationBackup {
    return backupOf(this.current, this.base);
  }

  dispose(): void {
    this.disposed.fire();
    this.changed.dispose();
    this.disposed.dispose();
  }
}
