// The edit state of an item document: values by key as saved (base) and as edited (current).
// Pure. `undefined` means "absent". Values are JSON and compared by their serialization.

export type JsonValue = unknown;

export function sameValue(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** Hot-exit backup: only the unsaved entries, never item content. */
export interface ItemBackup {
  schema: 'trajaudit.items-backup/v1';
  entries: Record<string, JsonValue | null>;
  /** Scenario sets: the run folder in use (a file URI string). */
  runFolder?: string;
}

export class EditState {
  private base = new Map<string, JsonValue>();
  private current = new Map<string, JsonValue>();

  /** Replaces the saved state; unsaved edits are dropped. */
  reset(entries: Iterable<[string, JsonValue]>): void {
    this.base = new Map(entries);
    this.current = new Map(this.base);
  }

  /** Marks the current state as saved. */
  commit(): void {
    this.base = new Map(this.current);
  }

  get(key: string): JsonValue | undefined {
    return this.current.get(key);
  }

  getBase(key: string): JsonValue | undefined {
    return this.base.get(key);
  }

  /** Sets a value; returns the previous one (for undo). */
  set(key: string, value: JsonValue | undefined): JsonValue | undefined {
    const before = this.current.get(key);
    if (value === undefined) this.current.delete(key);
    else this.current.set(key, value);
    return before;
  }

  keys(): string[] {
    return [...this.current.keys()];
  }

  changedKeys(): string[] {
    const keys = new Set([...this.current.keys(), ...this.base.keys()]);
    return [...keys].filter((k) => !sameValue(this.current.get(k), this.base.get(k)));
  }

  get isDirty(): boolean {
    return this.changedKeys().length > 0;
  }

  backupEntries(): Record<string, JsonValue | null> {
    const out: Record<string, JsonValue | null> = {};
    for (const key of this.changedKeys()) out[key] = this.current.get(key) ?? null;
    return out;
  }

  /** Every current entry (saved or not). */
  currentEntries(): Record<string, JsonValue> {
    return Object.fromEntries(this.current);
  }

  restore(entries: Record<string, JsonValue | null>): void {
    for (const [key, value] of Object.entries(entries)) this.set(key, value ?? undefined);
  }
}
