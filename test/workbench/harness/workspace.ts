// The workspace of a worker's code-server: a fresh copy of samples/ plus the files the tests
// generate. Tests that write (sidecars, exports, reviews) each get a file or folder of their own
// here, so no test depends on another one's writes.
import { copyFileSync, cpSync, mkdirSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { repoRoot } from './tools';
import { writeHostileNamedTrajectory, writeHostileTrajectory, type HostileTrajectory } from './hostile';

export const samplesDir = join(repoRoot, 'samples');

/** The samples the editor tests open (paths relative to the workspace). */
export const SAMPLES = {
  footballer: { path: 'trajectories/openai-chat/browsecomp-footballer-penalties.traj.json', name: 'browsecomp-footballer-penalties.traj.json', messages: 73 },
  architect: { path: 'trajectories/searchauditbench/sab-0882-architect-brother.traj.json', name: 'sab-0882-architect-brother.traj.json', messages: 65 },
  /**
   * Copies for the collection flow test, which opens, compares and exports them and reads their
   * labels (other tests annotate the originals); names of their own, so Quick Open finds the
   * originals for the tests that open them by name.
   */
  compareFootballer: { path: 'ui-compare/compare-footballer.traj.json', name: 'compare-footballer.traj.json' },
  compareArchitect: { path: 'ui-compare/compare-architect.traj.json', name: 'compare-architect.traj.json' },
  /** A copy of the architect sample for the hot-exit test (its own sidecar). */
  hotExitArchitect: { path: 'ui-fixtures/hot-exit-architect.traj.json', name: 'hot-exit-architect.traj.json' },
  /** A copy of the footballer sample (with its sidecar) for the palette audit test, which writes an audit into it. */
  auditFootballer: { path: 'ui-audit/audit-footballer.traj.json', name: 'audit-footballer.traj.json' },
  whowhen: { path: 'trajectories/who-and-when/whowhen-hc-1.json', name: 'whowhen-hc-1.json' },
  hostile: { path: 'ui-fixtures/hostile.traj.json', name: 'hostile.traj.json' },
} as const;

export interface RunFolderCopy {
  /** The folder's path relative to the workspace, as the Score Run Folder quick pick shows it. */
  label: string;
  folder: string;
}

export interface WorkspaceFiles {
  hostile: HostileTrajectory;
  /** Trajectories with sidecars (so the report has step links): one folder to look at, one to export from. */
  reportTrajectories: RunFolderCopy;
  exportTrajectories: RunFolderCopy;
  /** A copy of the Delegation sample for the blind-review test (its own sidecar). */
  blindItem: { path: string; name: string };
}

/** Every sample trajectory that has a sidecar, copied flat into `folder`. */
function copyAnnotatedTrajectories(workspace: string, label: string): RunFolderCopy {
  const folder = join(workspace, label);
  mkdirSync(folder, { recursive: true });
  const source = join(samplesDir, 'trajectories');
  for (const sub of readdirSync(source)) {
    for (const sidecar of readdirSync(join(source, sub)).filter((n) => n.endsWith('.audit.json'))) {
      const trajectory = sidecar.slice(0, -'.audit.json'.length);
      copyFileSync(join(source, sub, sidecar), join(folder, sidecar));
      copyFileSync(join(source, sub, trajectory), join(folder, trajectory));
    }
  }
  return { label, folder };
}

export function prepareWorkspace(workspace: string): WorkspaceFiles {
  // Scratch and temp files other tools may have left in samples/ stay out.
  cpSync(samplesDir, workspace, { recursive: true, filter: (src) => !/^(\.scratch|\.trajaudit-tmp-.*|.*\.tmp-\d+-[0-9a-f]+)$/.test(basename(src)) });
  const fixtures = join(workspace, 'ui-fixtures');
  const hostile = writeHostileTrajectory(fixtures);
  writeHostileNamedTrajectory(fixtures);
  copyFileSync(join(workspace, SAMPLES.architect.path), join(workspace, SAMPLES.hotExitArchitect.path));
  mkdirSync(join(workspace, 'ui-compare'), { recursive: true });
  for (const suffix of ['', '.audit.json'])
    copyFileSync(join(workspace, SAMPLES.footballer.path + suffix), join(workspace, SAMPLES.compareFootballer.path + suffix));
  copyFileSync(join(workspace, SAMPLES.architect.path), join(workspace, SAMPLES.compareArchitect.path));
  mkdirSync(join(workspace, 'ui-audit'), { recursive: true });
  for (const suffix of ['', '.audit.json'])
    copyFileSync(join(workspace, SAMPLES.footballer.path + suffix), join(workspace, SAMPLES.auditFootballer.path + suffix));
  const blindItem = { path: 'items/delegation/deleg-en-0231-blind-review.json', name: 'deleg-en-0231-blind-review.json' };
  copyFileSync(join(workspace, 'items/delegation/deleg-en-0231-oil-fund-equity-gap.json'), join(workspace, blindItem.path));
  return {
    hostile,
    reportTrajectories: copyAnnotatedTrajectories(workspace, 'ui-report/trajectories'),
    exportTrajectories: copyAnnotatedTrajectories(workspace, 'ui-export/trajectories'),
    blindItem,
  };
}
