import { readFileSync } from 'node:fs';
import { AUDIT_METHODS, type AuditMethod, type AuditResult } from '../../core/audit/types';
import { auditKey, appendAudits, cachedAudit } from '../../core/audit/sidecarAudits';
import { isModelMethod, runHeuristicAudit } from '../../core/audit/runAudit';
import { loadFile } from '../../core/load/loadFile';
import { isTrajectoryRecord } from '../../core/load/loadRecord';
import { ROOT_CAUSE_LABELS } from '../../core/model/rootCauses';
import { readSidecar, sha256Of, sidecarPathFor } from '../../core/sidecar/sidecarFile';
import { CliUsageError, oneFile, reportProblems, toolNamesFrom, type CliIo } from '../io';
import { runModelAudits } from './auditWithModel';
import { selectRecords } from './selectRecords';

export async function runAuditCommand(positionals: string[], values: Record<string, unknown>, io: CliIo): Promise<number> {
  const file = oneFile(positionals);
  const method = values.method as AuditMethod | undefined;
  if (!method || !AUDIT_METHODS.includes(method)) throw new CliUsageError(`--method must be one of ${AUDIT_METHODS.join(', ')}`);
  const loaded = loadFile(file);
  const records = selectRecords(loaded, values.record).filter(isTrajectoryRecord);
  if (records.length === 0) throw new CliUsageError(`${file} is a ${loaded.detection.kind}, not a trajectory`);
  const sha = sha256Of(readFileSync(file));
  const names = toolNamesFrom(values);
  const sidecar = readSidecar(sidecarPathFor(file));
  let results: { recordId: string; audit?: AuditResult; error?: string; cached?: boolean }[];
  if (!isModelMethod(method)) {
    results = records.map((r) => {
      try {
        return { recordId: r.id, audit: runHeuristicAudit(r.trajectory, names, sha) };
      } catch (error) {
        return { recordId: r.id, error: (error as Error).message };
      }
    });
  } else {
    results = await runModelAudits(records, method, values, io, {
      sha,
      names,
      cached: (recordId, keyParts) => (values.rerun ? undefined : cachedAudit(sidecar, recordId, auditKey({ trajectorySha256: sha, ...keyParts }))),
    });
  }
  const fresh = results.filter((r) => r.audit && !r.cached).map((r) => ({ recordId: r.recordId, audit: r.audit! }));
  if (fresh.length) appendAudits(file, loaded.detection.kind, fresh);
  if (values.json) {
    io.out(JSON.stringify(results.map((r) => ({ record: r.recordId, ...(r.audit ? { audit: r.audit, cached: Boolean(r.cached) } : { error: r.error }) })), null, 2));
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
    io.err(`${fresh.length} audit(s) written to ${sidecarPathFor(file)}`);
  }
  reportProblems(loaded.problems, io);
  return results.some((r) => r.error) || loaded.problems.length ? 1 : 0;
}
