import * as vscode from 'vscode';
import { BATCH_STAGES } from '../../core/audit/batch/searchAuditorBatch';
import type { AuditJob, AuditJobManager } from './auditJobs';
import { estimateText, usageText } from './batchFolderJob';

/** A batch job's stage and, before its results, the estimate; after, the real usage. */
function describeBatch(job: AuditJob): string {
  const b = job.batch!;
  const stage = b.phase === 'done' ? '' : b.stage ? ` · stage ${BATCH_STAGES.indexOf(b.stage) + 1}/3 ${b.stage}` : b.round ? ` · round ${b.round}` : '';
  const numbers = b.usage
    ? `usage: ${usageText(b.usage, b.costUsd)}`
    : b.estimate
      ? `estimate: ${b.estimate.inputTokens.toLocaleString('en-US')} in, ${b.estimate.outputTokens.toLocaleString('en-US')} out, ${b.estimate.costUsd === null ? 'unknown price' : `≈ $${b.estimate.costUsd.toFixed(4)} at batch prices`}`
      : '';
  return `${job.status} · batch ${b.phase}${stage} · ${job.completed + job.failed}/${job.total}${numbers ? ` · ${numbers}` : ''}`;
}

/** Inert detail lines of a batch job (children and tooltip). */
function batchDetails(job: AuditJob): string[] {
  const b = job.batch!;
  return [
    `batch: ${b.phase}${b.stage ? `, last stage ${BATCH_STAGES.indexOf(b.stage) + 1} of 3 (${b.stage})` : b.round ? `, last round ${b.round}` : ''}${b.resumed ? ', resumed' : ''}`,
    ...(b.estimate ? [`estimate before submitting: ${estimateText(b.estimate)}`] : []),
    ...(b.usage ? [`usage: ${usageText(b.usage, b.costUsd)}`] : []),
    ...(b.batchIds.length ? [`batches: ${b.batchIds.join(', ')}`] : []),
    `job folder: ${vscode.workspace.asRelativePath(b.jobDir)}`,
  ];
}

function describe(job: AuditJob): string {
  if (job.batch) return describeBatch(job);
  const tokens = job.calls
    ? `${job.calls} calls · ${(job.inputTokens / 1000).toFixed(1)}K in (${(job.cachedInputTokens / 1000).toFixed(1)}K cached) · ${(job.outputTokens / 1000).toFixed(1)}K out`
    : job.cachedHits
      ? `${job.cachedHits} cached`
      : '';
  const cost = job.costUsd > 0 ? ` · $${job.costUsd.toFixed(3)}` : '';
  const seconds = ((job.endedAt ?? Date.now()) - job.startedAt) / 1000;
  return `${job.status} ${job.completed + job.failed}/${job.total}${tokens ? ` · ${tokens}` : ''}${cost} · ${seconds.toFixed(1)} s`;
}

type Node = { job: AuditJob; detail?: string };

/** The "Audit Jobs" view: running and finished jobs with calls, tokens (cached apart), cost and latency. */
export class AuditJobsView implements vscode.TreeDataProvider<Node> {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly manager: AuditJobManager) {
    manager.onDidChange(() => this.changed.fire(undefined));
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.detail) return new vscode.TreeItem(node.detail, vscode.TreeItemCollapsibleState.None);
    const job = node.job;
    const item = new vscode.TreeItem(
      `${job.label} — ${job.method}${job.model !== 'heuristic' ? ` (${job.model})` : ''}`,
      vscode.TreeItemCollapsibleState.Collapsed,
    );
    item.description = describe(job);
    item.contextValue = job.status === 'running' || job.status === 'queued' ? 'runningJob' : 'finishedJob';
    item.iconPath = new vscode.ThemeIcon(
      job.status === 'running'
        ? 'sync~spin'
        : job.status === 'done'
          ? 'pass'
          : job.status === 'cancelled'
            ? 'circle-slash'
            : job.status === 'failed'
              ? 'error'
              : 'clock',
    );
    item.tooltip = job.batch
      ? [`${job.files.length} file(s)`, ...batchDetails(job)].join('\n')
      : `${job.files.length} file(s); latency ${(job.latencyMs / 1000).toFixed(1)} s of model time`;
    return item;
  }

  getChildren(node?: Node): Node[] {
    if (!node) return this.manager.all.map((job) => ({ job }));
    if (node.detail) return [];
    const job = node.job;
    return [
      ...(job.batch ? batchDetails(job).map((detail) => ({ job, detail })) : []),
      ...job.files.map((f) => ({ job, detail: vscode.workspace.asRelativePath(f) })),
      ...job.errors.map((e) => ({ job, detail: `error: ${e}` })),
    ];
  }
}

/** Status bar: running audits at a glance; click opens the jobs view. */
export function createJobsStatusBar(manager: AuditJobManager): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('trajaudit.jobs', vscode.StatusBarAlignment.Left, 50);
  item.name = 'Trajectory Auditor jobs';
  item.command = 'trajaudit.auditJobs.focus';
  const update = () => {
    const running = manager.running;
    if (running.length === 0) {
      item.hide();
      return;
    }
    const done = running.reduce((s, j) => s + j.completed + j.failed, 0);
    const total = running.reduce((s, j) => s + j.total, 0);
    item.text = `$(sync~spin) Auditing ${done}/${total}`;
    item.tooltip = running.map((j) => `${j.label}: ${j.method}`).join('\n');
    item.show();
  };
  const sub = manager.onDidChange(update);
  return vscode.Disposable.from(item, sub);
}
