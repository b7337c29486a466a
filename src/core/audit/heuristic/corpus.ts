// The annotated traces the heuristic is fitted and evaluated on, read from folders: Who&When's
// Algorithm-Generated and Hand-Crafted subsets and annotated search-agent trajectories (gold from
// the sidecar's annotation, else the file's gold fields), each with its signals computed once.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { loadFile } from '../../load/loadFile';
import { isTrajectoryRecord } from '../../load/loadRecord';
import { normalizeRootCause, type RootCause } from '../../model/rootCauses';
import type { Trajectory } from '../../model/trajectory';
import { readSidecar, sidecarPathFor } from '../../sidecar/sidecarFile';
import { heuristicSignals, type HeuristicFinding } from '../heuristic';
import type { StepSignals } from '../signals/stepSignals';
import type { FitCase } from './rank';

export interface AnnotatedCase {
  /** The file relative to `root` and the record id: stable, so folds by trace are too. */
  id: string;
  subset: string;
  t: Trajectory;
  gold: number;
  goldAgent?: string;
  /** The tolerance span and root cause, where the annotation has them (search-agent samples). */
  span?: [number, number];
  rootCause?: RootCause;
  steps: StepSignals[];
  search?: HeuristicFinding;
}

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(json|jsonl)$/.test(e.name) && !e.name.endsWith('.audit.json'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

function subsetOf(folder: string, file: string, t: Trajectory): string {
  if (/(^|[\\/])Algorithm-Generated[\\/]/.test(file)) return 'Who&When Algorithm-Generated';
  if (/(^|[\\/])Hand-Crafted[\\/]/.test(file)) return 'Who&When Hand-Crafted';
  if (t.format === 'who-and-when') return `Who&When (${basename(folder)})`;
  return `${basename(folder)} (search-agent samples)`;
}

/** Every annotated trajectory record under the folders (files that do not load are skipped). */
export function readAnnotatedCases(folders: string[], root: string): AnnotatedCase[] {
  const cases: AnnotatedCase[] = [];
  for (const folder of folders.filter((f) => existsSync(f) && statSync(f).isDirectory())) {
    for (const file of files(folder)) {
      const rel = relative(folder, file);
      // The Who&When traces copied into samples/ duplicate the dataset's; so do the dataset folder's top-level copies.
      if (/who-and-when\//.test(rel) || (/^whowhen-/.test(basename(file)) && !rel.includes('/'))) continue;
      let loaded;
      try {
        loaded = loadFile(file);
      } catch {
        continue;
      }
      const sidecar = existsSync(sidecarPathFor(file)) ? readSidecar(sidecarPathFor(file)) : undefined;
      for (const record of loaded.records.filter(isTrajectoryRecord)) {
        const t = record.trajectory;
        const annotation = sidecar?.records[record.id]?.annotation;
        const step = annotation?.criticalStep ?? t.gold?.criticalStep;
        if (typeof step !== 'number' || t.decisionSteps.length === 0) continue;
        const span = annotation?.toleranceSpan ?? t.gold?.toleranceSpan;
        const rootCause = normalizeRootCause(annotation?.rootCause ?? t.gold?.rootCause);
        cases.push({
          id: `${relative(root, file)}#${record.id}`,
          subset: subsetOf(folder, file, t),
          t,
          gold: step,
          ...(t.gold?.mistakeAgent ? { goldAgent: t.gold.mistakeAgent } : {}),
          ...(span ? { span: [span[0], span[1]] as [number, number] } : {}),
          ...(rootCause ? { rootCause } : {}),
          ...heuristicSignals(t),
        });
      }
    }
  }
  return cases;
}

/** The cases as fitting input, every subset weighing the same in total (so the weights are not those of the largest subset alone). */
export function balancedFitCases(cases: AnnotatedCase[]): FitCase[] {
  const size = new Map<string, number>();
  for (const c of cases) size.set(c.subset, (size.get(c.subset) ?? 0) + 1);
  return cases.map((c) => ({ steps: c.steps, gold: c.gold, weight: cases.length / (size.size * size.get(c.subset)!) }));
}
