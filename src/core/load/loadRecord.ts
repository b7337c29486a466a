import type { SourceText } from '../input/schemaCheck';
import { checkSchema } from '../input/schemaCheck';
import type { Trajectory, TrajectoryFormat } from '../model/trajectory';
import type { Detection } from '../formats/detect';
import { readerFor } from '../formats/registry';
import { InputError } from '../input/inputError';
import {
  clarifyInstanceSchema,
  deepSearchQaRowSchema,
  delegationItemSchema,
  scenarioSetSchema,
  type ClarifyInstance,
  type DeepSearchQaRow,
  type DelegationItem,
  type ScenarioSet,
} from '../items/schemas';
import { runManifestSchema, type RunManifest } from '../runs/manifest';
import { sidecarSchema, type Sidecar } from '../sidecar/schema';

interface Base {
  id: string;
  line?: number;
}
export type TrajectoryRecord = Base & {
  kind: TrajectoryFormat;
  trajectory: Trajectory;
  /** The query for record lists, known without reading the trajectory (an Inspect .eval record reads its sample on first access). */
  listQuery?: string;
};
export type LoadedRecord =
  | TrajectoryRecord
  | (Base & { kind: 'delegation-item'; item: DelegationItem })
  | (Base & { kind: 'deepsearchqa'; row: DeepSearchQaRow })
  | (Base & { kind: 'clarify-instance'; instance: ClarifyInstance })
  | (Base & { kind: 'scenario-set'; scenarioSet: ScenarioSet })
  | (Base & { kind: 'audit-sidecar'; sidecar: Sidecar })
  | (Base & { kind: 'run-manifest'; manifest: RunManifest });

function loadTrajectory(format: TrajectoryFormat, value: unknown, source: SourceText, id: string): Trajectory {
  const reader = readerFor(format);
  if (!reader) throw new InputError(source.file, `the ${format} reader is not available in this version`, { path: '$' });
  return reader.load(value, source, id);
}

export function loadRecord(value: unknown, detection: Detection, source: SourceText, id: string): LoadedRecord {
  const kind = detection.kind;
  switch (kind) {
    case 'delegation-item':
      return { kind, id, item: checkSchema(delegationItemSchema, value, source, 'a Delegation item (seed 000)') };
    case 'deepsearchqa':
      return { kind, id, row: { ...checkSchema(deepSearchQaRowSchema, value, source, 'a DeepSearchQA row'), id } };
    case 'clarify-instance':
      return { kind, id, instance: checkSchema(clarifyInstanceSchema, value, source, 'a Clarify-Then-Search instance') };
    case 'scenario-set':
      return { kind, id, scenarioSet: checkSchema(scenarioSetSchema, value, source, 'a scenario set (seed 003)') };
    case 'audit-sidecar':
      return { kind, id, sidecar: checkSchema(sidecarSchema, value, source, 'an audit sidecar') };
    case 'run-manifest':
      return { kind, id, manifest: checkSchema(runManifestSchema, value, source, 'a run-folder manifest') };
    default:
      return { kind, id, trajectory: loadTrajectory(kind, value, source, id) };
  }
}

export function isTrajectoryRecord(record: LoadedRecord): record is TrajectoryRecord {
  return 'trajectory' in record;
}
