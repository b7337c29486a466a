import type { TrajectoryRecord } from '../../core/load/loadRecord';
import type { AuditMethod, AuditResult } from '../../core/audit/types';
import type { ToolNames } from '../../core/stats/statistics';
import { CliUsageError, type CliIo } from '../io';

export interface ModelAuditContext {
  sha: string;
  names: ToolNames;
  cached: (recordId: string, key: { method: string; model: string; promptVersion: string; options?: unknown }) => AuditResult | undefined;
}

/** Model-backed audit methods (SearchAuditor and the baselines). */
export async function runModelAudits(
  _records: TrajectoryRecord[],
  method: AuditMethod,
  _values: Record<string, unknown>,
  _io: CliIo,
  _context: ModelAuditContext,
): Promise<{ recordId: string; audit?: AuditResult; error?: string; cached?: boolean }[]> {
  throw new CliUsageError(`method ${method} needs the model providers, which are not wired into the CLI yet; use --method heuristic`);
}
