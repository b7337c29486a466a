import type { AnnotationData } from '../../shared/protocol';
import { idKeyedObject } from '../input/idKeyed';

/** Annotations per record id; `undefined` means "no annotation". */
export type AnnotationMap = Map<string, AnnotationData | undefined>;

export function sameAnnotation(a: AnnotationData | undefined | null, b: AnnotationData | undefined | null): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** Record ids whose annotation differs between two maps. */
export function changedRecords(current: AnnotationMap, base: AnnotationMap): string[] {
  const ids = new Set([...current.keys(), ...base.keys()]);
  return [...ids].filter((id) => !sameAnnotation(current.get(id), base.get(id)));
}

/** Hot-exit backup: only the unsaved annotations, never trajectory content. */
export interface AnnotationBackup {
  schema: 'trajaudit.backup/v1';
  annotations: Record<string, AnnotationData | null>;
}

export function backupOf(current: AnnotationMap, base: AnnotationMap): AnnotationBackup {
  const annotations = idKeyedObject<AnnotationData | null>(); // a record id may be __proto__
  for (const id of changedRecords(current, base)) annotations[id] = current.get(id) ?? null;
  return { schema: 'trajaudit.backup/v1', annotations };
}
