// One writer process of sidecarConcurrency.test.ts: `rounds` audits into the single-trajectory
// file (record "0") and into its own record of the JSONL; the writer named "editor" also saves
// an annotation each round the way the editor does (merge under the lock).
import { appendAudits } from '../../../src/core/audit/sidecarAudits';
import type { AuditResult } from '../../../src/core/audit/types';
import { updateSidecar, emptySidecar, sidecarPathFor } from '../../../src/core/sidecar/sidecarFile';

const [single, jsonl, writer, roundsText] = process.argv.slice(2);

function audit(id: string): AuditResult {
  return {
    id,
    method: 'heuristic',
    provider: 'offline',
    model: id,
    createdAt: new Date().toISOString(),
    promptVersion: 'test',
    diagnosis: { criticalStep: 2, rootCause: 'constraint_neglect', rationale: `by ${id}`, citedSteps: [2] },
    repair: { directives: ['check'] },
    usage: { calls: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, latencyMs: 0 },
  };
}

async function main(): Promise<void> {
  for (let round = 0; round < Number(roundsText); round++) {
    await appendAudits(single, 'openai-chat', [{ recordId: '0', audit: audit(`${writer}-single-${round}`) }]);
    await appendAudits(jsonl, 'openai-chat', [{ recordId: writer, audit: audit(`${writer}-jsonl-${round}`) }]);
    if (writer === 'editor') {
      await updateSidecar(sidecarPathFor(single), (disk) => {
        const next = disk ?? emptySidecar(single, 'x', 'openai-chat');
        next.records['0'] = { ...(next.records['0'] ?? {}), annotation: { criticalStep: 2, rationale: `saved in round ${round}` } };
        return next;
      });
    }
  }
}

main().catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
