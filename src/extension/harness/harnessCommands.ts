// Harness commands of the extension: Delegation settings I/II, Stage-C filters, Clarify-Then-Search
// and the agent runner, each as a cancellable progress notification writing a resumable run folder
// (run the command again on the same input to resume). They call models and run shell commands, so
// they refuse to run in an untrusted workspace (the Stage-C pre-checks still run there).
import { dirname, join, basename, extname } from 'node:path';
import * as vscode from 'vscode';
import { loadDataset, runAgentOverDataset } from '../../core/harness/agent/runAgent';
import { templateProblems, TEMPLATE_VARIABLES } from '../../core/harness/agent/command';
import { runClarify } from '../../core/harness/clarify/run';
import { DOCUMENT_ORDERS } from '../../core/harness/delegation/docs';
import { itemsSha256, loadItemsList, runDelegation, type HarnessRunSummary } from '../../core/harness/delegation/run';
import { delegationPrompts } from '../../core/harness/prompts';
import type { HarnessProgress } from '../../core/harness/runFolder';
import { runStageC } from '../../core/harness/stageC/run';
import { usageLine } from '../../core/harness/wire';
import { InputError } from '../../core/input/inputError';
import { loadFile } from '../../core/load/loadFile';
import type { ModelClient } from '../../core/providers/types';
import { targetUri } from '../activeFile';
import { readAuditSettings } from '../audit/auditSettings';
import { offerAlternatives, resolveModel } from '../audit/modelClientFactory';
import type { ApiKeys } from '../audit/secrets';
import type { Log } from '../log';

export const HARNESS_COMMANDS = {
  delegation: 'trajaudit.harness.delegation',
  stageC: 'trajaudit.harness.stageC',
  clarify: 'trajaudit.harness.clarify',
  runAgent: 'trajaudit.harness.runAgent',
} as const;

/** Options a caller (tests, scripts) may pass instead of answering the prompts. */
export interface HarnessCommandArgs {
  setting?: 'full' | 'search';
  out?: string;
  command?: string;
}

const UNTRUSTED =
  'This workspace is not trusted. Harnesses send item contents to a model and agent runs execute a shell command, so Trajectory Auditor only runs them in a trusted workspace. The Stage-C pre-checks (no model) still run. Trust the workspace (Manage Workspace Trust) to run harnesses.';

function requireTrust(): boolean {
  if (vscode.workspace.isTrusted) return true;
  void vscode.window.showWarningMessage(UNTRUSTED, 'Manage Workspace Trust').then((choice) => {
    if (choice) void vscode.commands.executeCommand('workbench.trust.manage');
  });
  return false;
}

function harnessSettings() {
  const c = vscode.workspace.getConfiguration('trajaudit.harness');
  return {
    k: Math.max(1, c.get<number>('topK', 3)),
    budget: Math.max(0, c.get<number>('searchBudget', 5)),
    withhold: Math.max(0, c.get<number>('withhold', 1)),
    seed: c.get<number>('seed', 0),
    agentCommand: c.get<string>('agentCommand', ''),
    agentTimeoutSeconds: Math.max(1, c.get<number>('agentTimeoutSeconds', 1800)),
    agentPassApiKeys: c.get<boolean>('agentPassApiKeys', false) === true,
  };
}

async function modelOrExplain(keys: ApiKeys, needsTools: boolean): Promise<ModelClient | undefined> {
  const resolved = await resolveModel(readAuditSettings(), keys);
  if ('unavailable' in resolved) {
    await offerAlternatives(resolved.unavailable);
    return undefined;
  }
  if (needsTools && resolved.options.client.provider !== 'openai' && resolved.options.client.provider !== 'anthropic') {
    void vscode.window.showErrorMessage('Setting II needs a model that can call tools: choose the openai or anthropic provider (trajaudit.audit.provider).');
    return undefined;
  }
  return resolved.options.client;
}

/** Runs a harness as a cancellable notification; progress lines go to the log. */
async function withHarnessProgress(
  title: string,
  log: Log,
  run: (signal: AbortSignal, report: (e: HarnessProgress) => void) => Promise<HarnessRunSummary>,
): Promise<HarnessRunSummary | undefined> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
    const controller = new AbortController();
    const sub = token.onCancellationRequested(() => controller.abort());
    let last = 0;
    try {
      const summary = await run(controller.signal, (e) => {
        log.info(`${title}: ${e.done ? `[${e.done}/${e.total}] ` : ''}${e.message}`);
        const pct = e.total ? (100 * e.done) / e.total : 0;
        progress.report({
          message: `${e.done}/${e.total}${e.skipped ? ` (+${e.skipped} done earlier)` : ''} — ${e.message.slice(0, 80)}`,
          increment: Math.max(0, pct - last),
        });
        last = pct;
      });
      const text = `${title}: ${summary.completed} done now, ${summary.skipped} earlier, ${summary.failed.length} failed${summary.aborted ? ' — cancelled (run again to resume)' : ''}. ${usageLine(summary.runUsage)}.`;
      log.info(text);
      const reveal = 'Reveal Run Folder';
      void (
        summary.failed.length || summary.aborted ? vscode.window.showWarningMessage(text, reveal) : vscode.window.showInformationMessage(text, reveal)
      ).then((c) => {
        if (c === reveal) void vscode.commands.executeCommand('revealInExplorer', vscode.Uri.file(summary.folder));
      });
      return summary;
    } catch (error) {
      const message = error instanceof InputError ? error.message : (error as Error).message.split('\n')[0];
      log.error(`${title}: ${message}`);
      void vscode.window.showErrorMessage(`${title}: ${message}`);
      return undefined;
    } finally {
      sub.dispose();
    }
  });
}

const defaultOut = (input: string, kind: string) => join(dirname(input), 'trajaudit-runs', `${kind}-${basename(input, extname(input))}`);

async function agentTemplate(args: HarnessCommandArgs): Promise<string | undefined> {
  const configured = args.command ?? harnessSettings().agentCommand;
  const template =
    configured ||
    (await vscode.window.showInputBox({
      title: 'Agent command template',
      prompt: `A shell command run per query; variables ${TEMPLATE_VARIABLES.map((v) => `{${v}}`).join(' ')} (shell-quoted for you). Set trajaudit.harness.agentCommand to skip this.`,
      placeHolder: 'python run_agent.py --query {query} --answer {out_answer} --trajectory {out_trajectory}',
    }));
  if (!template) return undefined;
  const problems = templateProblems(template);
  if (problems.length) {
    void vscode.window.showErrorMessage(`Agent command: ${problems.join('; ')}`);
    return undefined;
  }
  return template;
}

export function registerHarnessCommands(keys: ApiKeys, log: Log): vscode.Disposable[] {
  const target = (uri?: vscode.Uri) => {
    const t = targetUri(uri);
    if (!t) void vscode.window.showWarningMessage('Select an items, instances or dataset file (or folder) first.');
    return t;
  };
  return [
    vscode.commands.registerCommand(HARNESS_COMMANDS.delegation, async (uri?: vscode.Uri, args: HarnessCommandArgs = {}) => {
      const t = target(uri);
      if (!t || !requireTrust()) return undefined;
      const setting =
        args.setting ??
        ((
          await vscode.window.showQuickPick(
            [
              { label: 'full', description: 'Setting I: the full document pool, three document orders, no tools' },
              { label: 'search', description: 'Setting II: partial context, search over the closed pool with a budget' },
            ],
            { title: 'Delegation setting' },
          )
        )?.label as 'full' | 'search' | undefined);
      if (!setting) return undefined;
      const client = await modelOrExplain(keys, setting === 'search');
      if (!client) return undefined;
      const s = harnessSettings();
      const items = loadItemsList(t.fsPath);
      const out = args.out ?? defaultOut(t.fsPath, 'delegation');
      const settings = readAuditSettings();
      return withHarnessProgress(`Delegation setting ${setting === 'full' ? 'I' : 'II'}`, log, (signal, onProgress) =>
        runDelegation({
          prompts: delegationPrompts(),
          seed: s.seed,
          k: s.k,
          budget: s.budget,
          withhold: s.withhold,
          docIds: 'auto',
          maxOutputTokens: settings.maxOutputTokens,
          ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
          setting,
          orders: [...DOCUMENT_ORDERS],
          itemsPath: t.fsPath,
          items,
          itemsSha: itemsSha256(items),
          out,
          client,
          concurrency: settings.concurrency,
          signal,
          onProgress,
          pricing: settings.pricing,
        }),
      );
    }),
    vscode.commands.registerCommand(HARNESS_COMMANDS.stageC, async (uri?: vscode.Uri, args: HarnessCommandArgs = {}) => {
      const t = target(uri);
      if (!t || !requireTrust()) return undefined;
      const client = await modelOrExplain(keys, false);
      if (!client) return undefined;
      const out = args.out ?? defaultOut(t.fsPath, 'stage-c');
      const settings = readAuditSettings();
      const summary = await withHarnessProgress('Stage-C filters', log, (signal, onProgress) =>
        runStageC({
          items: loadItemsList(t.fsPath),
          itemsPath: t.fsPath,
          out,
          verifiers: [{ label: `${client.provider}:${client.model}`, client }],
          views: ['C1', 'C2', 'C3', 'C4'],
          aggregate: 'all',
          concurrency: settings.concurrency,
          documentTemplate: delegationPrompts().document,
          maxOutputTokens: settings.maxOutputTokens,
          signal,
          onProgress,
          pricing: settings.pricing,
        }),
      );
      if (summary) await vscode.commands.executeCommand('markdown.showPreview', vscode.Uri.file(join(out, 'report.md')));
      return summary;
    }),
    vscode.commands.registerCommand(HARNESS_COMMANDS.clarify, async (uri?: vscode.Uri, args: HarnessCommandArgs = {}) => {
      const t = target(uri);
      if (!t || !requireTrust()) return undefined;
      const template = await agentTemplate(args);
      if (!template) return undefined;
      const client = await modelOrExplain(keys, false);
      if (!client) return undefined;
      const loaded = loadFile(t.fsPath);
      const instances = loaded.records.flatMap((r) => (r.kind === 'clarify-instance' ? [r.instance] : []));
      if (!instances.length) {
        void vscode.window.showErrorMessage(`${vscode.workspace.asRelativePath(t)} holds no Clarify-Then-Search instances.`);
        return undefined;
      }
      const settings = readAuditSettings();
      return withHarnessProgress('Clarify → rewrite → search', log, (signal, onProgress) =>
        runClarify({
          instances,
          out: args.out ?? defaultOut(t.fsPath, 'clarify'),
          roles: { clarifier: client, answerer: client, rewriter: client },
          budgets: [1, 2, 3],
          template,
          concurrency: Math.min(settings.concurrency, 2),
          timeoutMs: harnessSettings().agentTimeoutSeconds * 1000,
          passApiKeys: harnessSettings().agentPassApiKeys,
          cwd: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
          maxOutputTokens: settings.maxOutputTokens,
          signal,
          onProgress,
          pricing: settings.pricing,
        }),
      );
    }),
    vscode.commands.registerCommand(HARNESS_COMMANDS.runAgent, async (uri?: vscode.Uri, args: HarnessCommandArgs = {}) => {
      const t = target(uri);
      if (!t || !requireTrust()) return undefined;
      const template = await agentTemplate(args);
      if (!template) return undefined;
      let dataset;
      try {
        dataset = loadDataset(t.fsPath);
      } catch (error) {
        void vscode.window.showErrorMessage((error as Error).message);
        return undefined;
      }
      return withHarnessProgress('Agent runner', log, (signal, onProgress) =>
        runAgentOverDataset({
          datasetPath: t.fsPath,
          dataset,
          template,
          out: args.out ?? defaultOut(t.fsPath, `agent-${dataset.kind}`),
          concurrency: Math.min(readAuditSettings().concurrency, 2),
          timeoutMs: harnessSettings().agentTimeoutSeconds * 1000,
          passApiKeys: harnessSettings().agentPassApiKeys,
          cwd: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
          signal,
          onProgress,
        }),
      );
    }),
  ];
}
