import { InputError } from '../../core/input/inputError';
import type { LoadedFile } from '../../core/load/loadFile';
import type { LoadedRecord } from '../../core/load/loadRecord';

/** The records a command acts on: the one named by --record, else all of them. */
export function selectRecords(loaded: LoadedFile, recordId: unknown): LoadedRecord[] {
  if (typeof recordId !== 'string') return loaded.records;
  const found = loaded.records.find((r) => r.id === recordId);
  if (!found) {
    const ids = loaded.records
      .slice(0, 8)
      .map((r) => r.id)
      .join(', ');
    throw new InputError(loaded.file, `no record "${recordId}"; records are ${ids}${loaded.records.length > 8 ? ', …' : ''}`);
  }
  return [found];
}
