import { existsSync, readFileSync, statSync } from 'node:fs';
import { SEARCHAUDITOR_VARIANTS } from '../../core/audit/searchAuditor';
import { AUDIT_METHODS, type AuditMethod, type AuditResult } from '../../core/audit/types';
import { auditKey, appendAudits, cachedAudit, recordContentSha256 } from '../../core/audit/sidecarAudits';
import { heuristicOptions, isModelMethod, promptVersionOf, runHeuristicAudit } from '../../core/audit/runAudit';
import { loadFile } from '../../core/load/loadFile';
import { isTrajectoryRecord } from '../../core/load/loadRecord';
import { ROOT_CAUSE_LABELS } from '../../core/model/rootCauses';
import { readSidecar, sha256Of, sidecarPathFor } from '../../core/sidecar/sidecarFile';
import { CliUsageError, oneFile, reportProblems, toolNamesFrom, trajectoryFormatFrom, type CliIo } from '../io';
import {
  BATCH_OPTIONS,
  JSON_OPTION,
  PRICE_OPTION,
  PROVIDER_OPTIONS,
  RECORD_OPTION,
  TOOL_NAME_OPTIONS,
  TRAJECTORY_FORMAT_OPTION,
  concurrencyOption,
  type CliCommand,
} from '../options';
import { runBatchAudit } from './auditBatch';
import { runModelAudits } from './auditWithModel';
import { selectRecords } from './selectRecords';

export async function runAuditCommand(positionals: string[], values: Record<string, unknown>, io: CliIo): Promise<number> {
  const file = oneFile(positionals);
  const method = values.method as AuditMethod | undefined;
  if (!method || !AUDIT_METHODS.includes(method)) throw new CliUsageError(`--method must be one of ${AUDIT_METHODS.join(', ')}`);
  if (values.batch) return runBatchAudit(positionals, values, io);
  for (const flag of ['detach', 'poll-seconds', 'price']) if (values[flag] !== undefined) throw new CliUsageError(`--${flag} applies to --batch only`);
  if (existsSync(file) && statSync(file).isDirectory()) throw new CliUsageError(`${file} is a folder: audit a folder with --batch, or name one file`);
  const loaded = loadFile(file, { format: trajectoryFormatFrom(values) });
  const records = selectRecords(loaded, values.record).filter(isTrajectoryRecord);
  if (records.length === 0) throw new CliUsageError(`${file} is a ${loaded.detection.kind}, not a trajectory`);
  const sha = sha256Of(readFileSync(file));
  const names = toolNamesFrom(values);
  const sidecar = readSidecar(sidecarPathFor(file));
  let results: { recordId: string; audit?: AuditResult; error?: string; cached?: boolean }[];
  // An unchanged record audited the same way again reuses its stored result (no new entry).
  const cached = (record: (typeof records)[number], keyParts: { method: string; model: string; promptVersion: string; options?: unknown }) =>
    values.rerun ? undefined : cachedAudit(sidecar, record.id, auditKey({ contentSha256: recordContentSha256(record.trajectory), ...keyParts }));
  if (!isModelMethod(method)) {
    const options = heuristicOptions(names);
    results = records.map((r) => {
      try {
        const reused = cached(r, { method, model: 'heuristic', promptVersion: promptVersionOf(method), ...(options ? { options } : {}) });
        if (reused) return { recordId: r.id, audit: reused, cached: true };
        return { recordId: r.id, audit: runHeuristicAudit(r.trajectory, names, sha) };
      } catch (error) {
        return { recordId: r.id, error: (error as Error).message };
      }
    });
  } else {
    const byId = new Map(records.map((r) => [r.id, r]));
    results = await runModelAudits(records, method, values, io, {
      sha,
      names,
      cached: (recordId, keyParts) => cached(byId.get(recordId)!, keyParts),
    });
  }
  const fresh = results.filter((r) => r.audit && !r.cached).map((r) => ({ recordId: r.recordId, audit: r.audit! }));
  const written = fresh.length ? (await appendAudits(file, loaded.detection.kind, fresh, { rerun: Boolean(values.rerun) })).written : 0;
  if (values.json) {
    io.out(
      JSON.stringify(
        results.map((r) => ({ record: r.recordId, ...(r.audit ? { audit: r.audit, cached: Boolean(r.cached) } : { error: r.error }) })),
        null,
        2,
      ),
    );
  } else {
    for (const r of results) {
      if (!r.audit) {
        io.out(`record ${r.recordId}: failed — ${r.error}`);
        continue;
      }
      const d = r.audit.diagnosis;
      io.out(`record ${r.recordId}: ${r.audit.method}${r.cached ? ' (cached)' : ''} → step ${d.criticalStep}, ${ROOT_CAUSE_LABELS[d.rootCause]}`);
      io.out(`  ${d.rationale}`);
      for (const directive of r.audit.repair.directives) io.out(`  - ${directive}`);
    }
    io.err(
      `${written} audit(s) written to ${sidecarPathFor(file)}${results.some((r) => r.cached) ? ` (${results.filter((r) => r.cached).length} unchanged, reused)` : ''}`,
    );
  }
  reportProblems(loaded.problems, io);
  return results.some((r) => r.error) || loaded.problems.length ? 1 : 0;
}

export const auditCommand: CliCommand = {
  name: 'audit',
  args: '<file or folder>',
  summary:
    'Runs an audit method on a trajectory file (with --batch: every trajectory under a folder, through the provider batch API) and appends the audits to each sidecar <file>.audit.json. Methods: searchauditor, all-at-once, step-by-step, binary-search (model-backed) and heuristic (offline, no model).',
  options: {
    method: { type: 'string', value: AUDIT_METHODS.join('|'), help: 'the audit method', required: true },
    ...RECORD_OPTION,
    ...TRAJECTORY_FORMAT_OPTION,
    ...PROVIDER_OPTIONS,
    ...concurrencyOption('records audited', 4),
    rerun: { type: 'boolean', help: 'ignore the cached result and audit again' },
    ...JSON_OPTION,
    'context-limit': { type: 'string', value: 'N', help: 'tokens; longer trajectories have tool returns cut head-and-tail to fit (default 128000)' },
    'warm-cache': { type: 'boolean', help: 'searchauditor: one branch first, the other two read the trajectory from the prompt cache' },
    ablation: { type: 'string', value: SEARCHAUDITOR_VARIANTS.join('|'), help: 'searchauditor ablation (default full)' },
    'no-full-trajectory': { type: 'boolean', help: 'the adjudicator sees only the reports, outline and windows' },
    ...BATCH_OPTIONS,
    ...PRICE_OPTION,
    ...TOOL_NAME_OPTIONS,
  },
  run: runAuditCommand,
};
