// `trajaudit.scoreRunFolder` — "Score Run Folder": scores a run folder in the background (progress
// with cancel) and opens the report panel. Verdicts a deterministic pass cannot give (the rubric
// grader, nugget coverage, scenario criteria; fresh DeepSearchQA/Delegation answers) are asked of
// a model when one is configured (trajaudit.audit.* settings, keys in SecretStorage, or VS Code
// language models) and the workspace is trusted; otherwise the report says deterministic judges
// were used and why.
import { statSync } from 'node:fs';
import { dirname, sep } from 'node:path';
import * as vscode from 'vscode';
import { InputError } from '../../core/input/inputError';
import { AbortedError } from '../../core/scoring/judges/judge';
import { countingModel } from '../../core/scoring/judges/llm';
import { structuredModelFromClient } from '../../core/scoring/judges/providerModel';
import { buildReportModel } from '../../core/scoring/report/reportModel';
import { judgingNeeds, scoreRunFolder, scoreRunFolderSync, type RunScoreResult, type ScoreOptions } from '../../core/scoring/scoreRunFolder';
import { readAuditSettings } from '../audit/auditSettings';
import { resolveModel } from '../audit/modelClientFactory';
import type { ApiKeys } from '../audit/secrets';
import type { Log } from '../log';
import { ReportPanels, type ReportPanel } from './reportPanel';

export const SCORE_RUN_FOLDER_COMMAND = 'trajaudit.scoreRunFolder';

export interface ScoreCommandArgs {
  /** `deterministic`: never call a model (default `auto`: a model when verdicts are missing and one is ready). */
  judge?: 'auto' | 'deterministic';
  /** audit runs: score the newest audit of this method. */
  method?: string;
}

const RUN_MARKERS =
  '**/{trajaudit.run.json,gold.jsonl,predictions.jsonl,responses.jsonl,gold_nuggets.jsonl,results.jsonl,outputs.jsonl,resumes.jsonl,*.audit.json}';

/** Palette: run folders found in the workspace (by their marker files), or a folder dialog. */
async function pickFolder(): Promise<vscode.Uri | undefined> {
  const found = await vscode.workspace.findFiles(RUN_MARKERS, '**/node_modules/**', 2000);
  const roots = new Set((vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath));
  const folders = new Map<string, string>();
  for (const uri of found) {
    const dir = dirname(uri.fsPath);
    const name = uri.fsPath.slice(dir.length + 1);
    const why = name.endsWith('.audit.json') ? 'trajectories with audit sidecars' : name === 'trajaudit.run.json' ? 'run manifest' : name;
    if (!folders.has(dir)) folders.set(dir, why);
    // Sidecars in subfolders: the parent scores them together.
    const parent = dirname(dir);
    if (name.endsWith('.audit.json') && !folders.has(parent) && [...roots].some((r) => parent.startsWith(r + sep)))
      folders.set(parent, 'trajectories with audit sidecars in subfolders');
  }
  const browse = { label: '$(folder-opened) Browse…', description: 'choose any folder', uri: undefined as vscode.Uri | undefined };
  const items = [...folders]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([dir, why]) => ({
      label: vscode.workspace.asRelativePath(dir, (vscode.workspace.workspaceFolders?.length ?? 0) > 1),
      description: why,
      uri: vscode.Uri.file(dir),
    }));
  const choice =
    items.length === 0
      ? browse
      : await vscode.window.showQuickPick([...items, browse], {
          title: 'Score which run folder?',
          placeHolder: 'Run folders found in the workspace (by their files), or browse',
          matchOnDescription: true,
        });
  if (!choice) return undefined;
  if (choice.uri) return choice.uri;
  return (
    await vscode.window.showOpenDialog({
      canSelectFolders: true,
      canSelectFiles: false,
      canSelectMany: false,
      title: 'Run folder to score',
      openLabel: 'Score',
    })
  )?.[0];
}

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

interface Outcome {
  scored: RunScoreResult;
  judgeMode: { model: boolean; text: string };
}

async function score(
  folder: string,
  args: ScoreCommandArgs,
  keys: ApiKeys,
  progress: vscode.Progress<{ message?: string; increment?: number }>,
  token: vscode.CancellationToken,
): Promise<Outcome | undefined> {
  const base: ScoreOptions = args.method ? { method: args.method } : {};
  progress.report({ message: 'reading the run files…' });
  // Let the notification show before the (synchronous) deterministic pass.
  await new Promise((resolve) => setTimeout(resolve, 0));
  if (token.isCancellationRequested) return undefined;
  // The deterministic pass: cached verdicts and deterministic judges; it also tells what is missing.
  const offline = scoreRunFolderSync(folder, base);
  const needs = judgingNeeds(offline);
  const missing = needs.needsModel + needs.exactJudged;
  const what = needs.needsModel
    ? `${plural(needs.needsModel, 'verdict')} need a model judge and ${needs.needsModel === 1 ? 'is' : 'are'} counted as not passing`
    : `${plural(needs.exactJudged, 'answer')} judged by the deterministic exact-match judge`;
  if (missing === 0) {
    const cached = offline.judging.cached;
    return {
      scored: offline,
      judgeMode: {
        model: false,
        text: cached
          ? `No judge was needed: ${plural(cached, 'cached verdict')} reused from the judgment cache.`
          : 'No judge was needed: every verdict is deterministic or given in the run files.',
      },
    };
  }
  if (args.judge === 'deterministic') return { scored: offline, judgeMode: { model: false, text: `Deterministic judges only (as asked): ${what}.` } };
  if (!vscode.workspace.isTrusted)
    return {
      scored: offline,
      judgeMode: {
        model: false,
        text: `Deterministic judges: this workspace is not trusted, so no model is called; ${what}. Trust the workspace to judge with a model.`,
      },
    };
  const settings = readAuditSettings();
  const resolved = settings.provider === 'none' ? { unavailable: 'trajaudit.audit.provider is "none".' } : await resolveModel(settings, keys);
  if ('unavailable' in resolved) {
    return {
      scored: offline,
      judgeMode: {
        model: false,
        text: `Deterministic judges: ${lowerFirst(resolved.unavailable.replace(/\.$/, ''))} (set an API key, trajaudit.audit.baseUrl or a VS Code language model to judge with a model); ${what}.`,
      },
    };
  }
  if (token.isCancellationRequested) return undefined;
  const controller = new AbortController();
  const subscription = token.onCancellationRequested(() => controller.abort());
  let calls = 0;
  const step = 100 / Math.max(1, missing);
  progress.report({ message: `judging ${plural(missing, 'verdict')} with ${resolved.client.model}…` });
  const model = countingModel(structuredModelFromClient(resolved.client, { maxOutputTokens: settings.maxOutputTokens }), () => {
    calls++;
    progress.report({
      message: `judging with ${resolved.client.model}: ${plural(calls, 'model call')} of about ${missing}`,
      increment: calls <= missing ? step : 0,
    });
  });
  const kind = offline.score.kind;
  try {
    const scored = await scoreRunFolder(folder, {
      ...base,
      model,
      ...(kind === 'deepsearchqa' || kind === 'delegation' ? { judge: 'llm' as const } : {}),
      signal: controller.signal,
      concurrency: settings.concurrency,
    });
    const j = scored.judging;
    return {
      scored,
      judgeMode: {
        model: true,
        text: `Judged with ${resolved.client.model}: ${plural(j.modelCalls, 'model call')}${j.cached ? `, ${plural(j.cached, 'cached verdict')} reused` : ''}; new verdicts were added to the run's judgment cache.`,
      },
    };
  } finally {
    subscription.dispose();
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Scores `folder` with progress and opens (or updates) its report panel; undefined when cancelled or the folder is bad. */
export async function scoreAndShow(
  folderUri: vscode.Uri,
  args: ScoreCommandArgs,
  keys: ApiKeys,
  panels: ReportPanels,
  log: Log,
): Promise<ReportPanel | undefined> {
  const folder = isFolder(folderUri.fsPath) ? folderUri.fsPath : dirname(folderUri.fsPath);
  const label = vscode.workspace.asRelativePath(folder, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
  let outcome: Outcome | undefined;
  try {
    outcome = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Scoring ${label}`, cancellable: true },
      (progress, token) => score(folder, args, keys, progress, token),
    );
  } catch (error) {
    if (error instanceof AbortedError || (error as Error)?.name === 'AbortError') {
      void vscode.window.showInformationMessage(`Scoring ${label} was cancelled; verdicts already received are kept in the judgment cache.`);
      return undefined;
    }
    const message = error instanceof InputError ? error.message : `${(error as Error)?.message ?? String(error)}`;
    log.error(`score ${folder}: ${message}`);
    void vscode.window.showErrorMessage(`Cannot score ${label}: ${message}`);
    return undefined;
  }
  if (!outcome) {
    void vscode.window.showInformationMessage(`Scoring ${label} was cancelled.`);
    return undefined;
  }
  const result = outcome.scored;
  log.info(`score ${folder}: kind ${result.detection.kind} (${result.detection.reason}); ${outcome.judgeMode.text}`);
  const built = buildReportModel(result, { folderLabel: label, judgeMode: outcome.judgeMode });
  return panels.show(folder, result, built);
}

export function registerScoreRunFolder(panels: ReportPanels, keys: ApiKeys, log: Log): vscode.Disposable {
  return vscode.commands.registerCommand(SCORE_RUN_FOLDER_COMMAND, async (uri?: unknown, args?: unknown) => {
    // From the explorer the second argument is the list of selected resources, not options.
    const options: ScoreCommandArgs = args && typeof args === 'object' && !Array.isArray(args) ? (args as ScoreCommandArgs) : {};
    const folder = uri instanceof vscode.Uri ? uri : typeof uri === 'string' ? vscode.Uri.file(uri) : await pickFolder();
    if (!folder) return undefined;
    return scoreAndShow(folder, options, keys, panels, log);
  });
}
