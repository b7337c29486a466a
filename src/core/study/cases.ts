// The gold cases of a study: every trajectory record under a folder with a gold critical step —
// the sidecar's human annotation, else the gold the file carries (SearchAuditBench fields), the
// same precedence as the audit run kind (scoring/runs/auditRun.ts).
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { loadFile } from '../load/loadFile';
import { isTrajectoryRecord } from '../load/loadRecord';
import type { RootCause } from '../model/rootCauses';
import type { Trajectory, TrajectoryFormat } from '../model/trajectory';
import { readSidecar, sidecarPathFor } from '../sidecar/sidecarFile';

export interface StudyCase {
  /** `<file relative to the folder>#<record id>`. */
  id: string;
  trajectory: Trajectory;
  gold: { criticalStep: number; span: [number, number]; rootCause?: RootCause; rubrics?: string[] };
}

const SKIP_DIRS = new Set(['node_modules', '.git']);

function trajectoryFiles(folder: string, exclude: string | undefined): string[] {
  if (!statSync(folder).isDirectory()) return [folder];
  const out: string[] = [];
  const skip = exclude ? resolve(exclude) : undefined;
  const walk = (dir: string) => {
    if (skip && (resolve(dir) === skip || resolve(dir).startsWith(skip + sep))) return;
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('.') || SKIP_DIRS.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && /\.(json|jsonl|eval)$/i.test(entry.name) && !entry.name.endsWith('.audit.json')) out.push(path);
    }
  };
  walk(folder);
  return out;
}

/** Gold cases under `folder` (the study's own output folder `exclude` is not read); notes say what was left out. */
export function studyCases(folder: string, options: { format?: TrajectoryFormat; exclude?: string } = {}): { cases: StudyCase[]; notes: string[] } {
  const root = statSync(folder).isDirectory() ? folder : resolve(folder, '..');
  const cases: StudyCase[] = [];
  const notes: string[] = [];
  let withoutGold = 0;
  for (const file of trajectoryFiles(folder, options.exclude)) {
    let loaded;
    try {
      loaded = loadFile(file, { format: options.format });
    } catch (error) {
      notes.push(`${file}: not read (${(error as Error).message.split('\n')[0]})`);
      continue;
    }
    const records = loaded.records.filter(isTrajectoryRecord);
    if (records.length === 0) continue;
    const sidecar = readSidecar(sidecarPathFor(file));
    const name = relative(root, file).split(sep).join('/');
    for (const record of records) {
      const t = record.trajectory;
      const annotation = sidecar?.records[record.id]?.annotation;
      const fromAnnotation = typeof annotation?.criticalStep === 'number';
      const k = fromAnnotation ? (annotation?.criticalStep as number) : t.gold?.criticalStep;
      if (k === undefined) {
        withoutGold++;
        continue;
      }
      const span = (fromAnnotation ? annotation?.toleranceSpan : t.gold?.toleranceSpan) ?? [k, k];
      const rootCause = ((fromAnnotation ? annotation?.rootCause : t.gold?.rootCause) ?? undefined) as RootCause | undefined;
      const rubrics = annotation?.repairRubrics ?? t.gold?.repairRubrics;
      cases.push({
        id: `${name}#${record.id}`,
        trajectory: t,
        gold: { criticalStep: k, span: [span[0], span[1]], rootCause, ...(rubrics ? { rubrics } : {}) },
      });
    }
  }
  if (withoutGold) notes.push(`${withoutGold} trajectory record(s) have no gold critical step (no annotation, no embedded gold) and are not study cases`);
  return { cases, notes };
}
