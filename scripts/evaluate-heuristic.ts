// Evaluates the offline heuristic auditor against trivial positional rules on every annotated
// trajectory under a folder (default: samples/trajectories and ../shared/data/who-and-when):
// gold = the sidecar's human annotation, else the gold fields in the file. Prints CS-Strict,
// CS-Loose and RC-Acc (docs/metrics.md §1) per method. Run: npm run eval:heuristic [-- <folder…>]
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { heuristicAudit } from '../src/core/audit/heuristic';
import { loadFile } from '../src/core/load/loadFile';
import { isTrajectoryRecord } from '../src/core/load/loadRecord';
import { normalizeRootCause, type RootCause } from '../src/core/model/rootCauses';
import type { Trajectory } from '../src/core/model/trajectory';
import { scoreAudit, type AuditCase } from '../src/core/scoring/audit';
import { readSidecar, sidecarPathFor } from '../src/core/sidecar/sidecarFile';

type Method = { name: string; predict: (t: Trajectory) => { criticalStep: number; rootCause?: RootCause } };

// Positional rules predict the step only; their root cause is the corpus' majority class
// (Candidate Mismanagement, 27.2% of SearchAuditBench), the strongest constant guess.
const MAJORITY: RootCause = 'candidate_mismanagement';
const METHODS: Method[] = [
  { name: 'heuristic (offline)', predict: (t) => heuristicAudit(t) },
  { name: 'first decision step', predict: (t) => ({ criticalStep: t.decisionSteps[0], rootCause: MAJORITY }) },
  { name: 'second decision step', predict: (t) => ({ criticalStep: t.decisionSteps[Math.min(1, t.decisionSteps.length - 1)], rootCause: MAJORITY }) },
  { name: 'last decision step', predict: (t) => ({ criticalStep: t.decisionSteps[t.decisionSteps.length - 1], rootCause: MAJORITY }) },
];

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(json|jsonl)$/.test(e.name) && !e.name.endsWith('.audit.json'))
    .map((e) => join(e.parentPath, e.name));
}

const root = resolve(__dirname, '..');
const folders = process.argv.slice(2).length ? process.argv.slice(2) : [join(root, 'samples', 'trajectories')];
const cases: { id: string; t: Trajectory; gold: AuditCase['gold'] }[] = [];
for (const folder of folders.filter((f) => existsSync(f) && statSync(f).isDirectory())) {
  for (const file of files(folder)) {
    let loaded;
    try {
      loaded = loadFile(file);
    } catch {
      continue;
    }
    const sidecar = existsSync(sidecarPathFor(file)) ? readSidecar(sidecarPathFor(file)) : undefined;
    for (const record of loaded.records.filter(isTrajectoryRecord)) {
      const a = sidecar?.records[record.id]?.annotation;
      const g = record.trajectory.gold;
      const step = a?.criticalStep ?? g?.criticalStep;
      if (typeof step !== 'number') continue;
      const span = (a?.toleranceSpan ?? g?.toleranceSpan ?? [step, step]) as [number, number];
      const rootCause = normalizeRootCause(a?.rootCause ?? g?.rootCause);
      cases.push({
        id: `${file.slice(root.length + 1)}#${record.id}`,
        t: record.trajectory,
        gold: { criticalStep: step, span, ...(rootCause ? { rootCause } : {}), finalIndex: record.trajectory.messages.length - 1 },
      });
    }
  }
}

const withCause = cases.filter((c) => c.gold.rootCause).length;
console.log(`${cases.length} annotated trajectories (${withCause} with a root cause) under ${folders.join(', ')}\n`);
console.log('| method | CS-Strict | CS-Loose | RC-Acc (over cases with a root cause) |\n| --- | --- | --- | --- |');
for (const method of METHODS) {
  const scored = cases.map((c) => ({ id: c.id, gold: c.gold, prediction: method.predict(c.t) }));
  const all = scoreAudit(scored);
  const rc = scoreAudit(scored.filter((c) => c.gold.rootCause));
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  console.log(`| ${method.name} | ${pct(all.metrics.cs_strict)} | ${pct(all.metrics.cs_loose)} | ${pct(rc.metrics.rc_acc)} |`);
}
if (process.argv.includes('--cases'))
  for (const c of cases) console.log(c.id, c.gold.criticalStep, c.gold.span, c.gold.rootCause, '→', JSON.stringify(heuristicAudit(c.t)).slice(0, 80));
