import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { problemFromError, type Problem } from '../input/inputError';
import { duplicateKeys, firstSyntaxError, type DuplicateKey } from '../input/jsonScan';
import { formatJsonPath, locateJsonPath, nonBlankLines, type JsonPath } from '../input/jsonText';
import { decodeText, lineColumnAt, readFileBytes, readTextFile } from '../input/readText';
import { isTrajectoryRecord, type LoadedRecord } from '../load/loadRecord';
import { loadText, type LoadedFile } from '../load/loadFile';
import type { Trajectory, TrajectoryFormat } from '../model/trajectory';
import { parseSidecar, sha256Of } from '../sidecar/sidecarFile';
import { scoreRunFolderSync } from '../scoring/scoreRunFolder';
import { KNOWN_RUN_FILES } from '../scoring/runs/detect';
import type { Sidecar } from '../sidecar/schema';

interface Ctx {
  file: string;
  text: string;
  problems: Problem[];
}

function report(ctx: Ctx, severity: Problem['severity'], message: string, path: JsonPath, lineOffset = 0): void {
  const where = locateJsonPath(ctx.text, path);
  ctx.problems.push({
    file: ctx.file,
    message,
    severity,
    path: formatJsonPath(path),
    ...(where ? { line: where.line + lineOffset, column: where.column } : {}),
  });
}

/** Gold labels must point at decision steps inside the trajectory (seed 002 §3.2). */
function checkTrajectory(ctx: Ctx, t: Trajectory, base: JsonPath, lineOffset: number): void {
  const last = t.messages.length - 1;
  const messagesKey = t.format === 'searchauditbench' ? 'trajectory' : t.format === 'who-and-when' ? 'history' : 'messages';
  if (t.messages.length === 0) report(ctx, 'error', `no messages; expected a non-empty ${messagesKey} list`, [...base, messagesKey], lineOffset);
  if (t.decisionSteps.length === 0 && t.messages.length > 0)
    report(ctx, 'warning', 'no decision step (no assistant message)', [...base, messagesKey], lineOffset);
  for (const position of t.decisionSteps) {
    t.messages[position].toolCalls.forEach((call, i) => {
      if (!call.argumentsValid) {
        const path = t.format === 'tongyi-react' ? [...base, messagesKey, position, 'content'] : [...base, messagesKey, position, 'tool_calls', i];
        report(ctx, 'warning', `tool call ${call.name} at message ${position}: arguments are not valid JSON (kept raw)`, path, lineOffset);
      }
    });
  }
  const gold = t.gold;
  if (!gold) return;
  const goldKey = t.format === 'who-and-when' ? 'mistake_step' : 'critical_step';
  if (gold.criticalStep !== undefined) {
    if (gold.criticalStep < 0 || gold.criticalStep > last)
      report(ctx, 'error', `gold critical step ${gold.criticalStep} is outside the trajectory (messages 0–${last})`, [...base, goldKey], lineOffset);
    else if (!t.decisionSteps.includes(gold.criticalStep))
      report(
        ctx,
        'error',
        `gold critical step ${gold.criticalStep} is a ${t.messages[gold.criticalStep].role} message; expected a decision step (assistant message)`,
        [...base, goldKey],
        lineOffset,
      );
  }
  const span = gold.toleranceSpan;
  if (span) {
    if (span[0] > span[1]) report(ctx, 'error', `tolerance span [${span[0]}, ${span[1]}] starts after it ends`, [...base, 'tolerance_span'], lineOffset);
    else if (gold.criticalStep !== undefined && (gold.criticalStep < span[0] || gold.criticalStep > span[1]))
      report(
        ctx,
        'error',
        `tolerance span [${span[0]}, ${span[1]}] does not contain the critical step ${gold.criticalStep}`,
        [...base, 'tolerance_span'],
        lineOffset,
      );
    if (span[1] > last)
      report(ctx, 'error', `tolerance span end ${span[1]} is outside the trajectory (messages 0–${last})`, [...base, 'tolerance_span'], lineOffset);
  }
  for (const { path, value } of gold.invalidSteps ?? []) {
    report(
      ctx,
      'error',
      `expected a whole number from 0 (a message position), got ${describeStepValue(value)}; the gold step is ignored`,
      [...base, ...path],
      lineOffset,
    );
  }
  if (gold.rootCauseRaw)
    report(
      ctx,
      'error',
      `unknown root cause ${JSON.stringify(gold.rootCauseRaw)}; expected one of the six of seed 002 Appendix A`,
      [...base, 'root_cause_primary'],
      lineOffset,
    );
}

function describeStepValue(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'a number beyond the range of numbers (read as infinity)';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : String(value);
}

function checkSidecarAgainstTrajectory(ctx: Ctx, sidecar: Sidecar, sidecarPath: string): void {
  const trajectoryPath = join(dirname(sidecarPath), sidecar.trajectory.file);
  const fallback = sidecarPath.replace(/\.audit\.json$/, '');
  const target = existsSync(trajectoryPath) ? trajectoryPath : existsSync(fallback) ? fallback : undefined;
  if (!target) {
    report(ctx, 'warning', `the trajectory ${sidecar.trajectory.file} is not beside the sidecar`, ['trajectory', 'file']);
    return;
  }
  const bytes = readFileBytes(target);
  const currentSha = sha256Of(bytes);
  if (sidecar.trajectory.sha256 && sidecar.trajectory.sha256 !== currentSha) {
    report(ctx, 'warning', `${basename(target)} changed since this sidecar was written (sha256 differs); positions may have moved`, ['trajectory', 'sha256']);
  }
  let loaded: LoadedFile;
  try {
    loaded = loadText(decodeText(bytes, target), target);
  } catch {
    return; // the trajectory's own problems are reported when it is validated
  }
  const byId = new Map(loaded.records.filter(isTrajectoryRecord).map((r) => [r.id, r.trajectory]));
  for (const [id, record] of Object.entries(sidecar.records)) {
    const t = byId.get(id);
    if (!t) {
      report(ctx, 'error', `record "${id}" is not in ${basename(target)} (records: ${[...byId.keys()].slice(0, 5).join(', ')}${byId.size > 5 ? ', …' : ''})`, [
        'records',
        id,
      ]);
      continue;
    }
    const a = record.annotation;
    // Audits re-stamp trajectory.sha256, never an annotation's own hash: stays until a person confirms.
    if (a?.trajectorySha256 && a.trajectorySha256 !== currentSha) {
      report(
        ctx,
        'warning',
        `the annotation of record "${id}" was made on other content of ${basename(target)} (sha256 differs); check its steps, then confirm it with trajaudit validate --accept-content ${basename(sidecarPath)}`,
        ['records', id, 'annotation'],
      );
    }
    const steps: [string, number | null | undefined][] = [
      ['criticalStep', a?.criticalStep],
      ['toleranceSpan', a?.toleranceSpan?.[0]],
      ['toleranceSpan', a?.toleranceSpan?.[1]],
    ];
    for (const [key, step] of steps) {
      if (typeof step === 'number' && !t.decisionSteps.includes(step)) {
        report(ctx, 'error', `annotation ${key} ${step} is not a decision step of record "${id}"`, ['records', id, 'annotation', key]);
      }
    }
  }
}

function checkManifest(ctx: Ctx, record: Extract<LoadedRecord, { kind: 'run-manifest' }>, manifestPath: string): void {
  for (const [key, value] of Object.entries(record.manifest)) {
    if (key === 'kind' || typeof value !== 'string') continue;
    if (!existsSync(resolve(dirname(manifestPath), value))) report(ctx, 'error', `${key}: ${value} does not exist`, [key]);
  }
}

/**
 * Keys repeated within one object: JSON.parse keeps the last value without a word, so the first
 * is silently lost. A JSON text is scanned whole, anything else (JSONL) line by line.
 */
function duplicateKeyWarnings(text: string, file: string): Problem[] {
  const problems: Problem[] = [];
  const warn = (found: DuplicateKey[], lineText: string, lineOffset: number) => {
    for (const d of found) {
      const { line, column } = lineColumnAt(lineText, d.offset);
      problems.push({
        file,
        severity: 'warning',
        message: `key ${JSON.stringify(d.key)} appears twice in one object; only its last value is read`,
        path: formatJsonPath([...d.path, d.key]),
        line: line + lineOffset,
        column,
      });
    }
  };
  if (!/^\s*[[{]/.test(text)) return problems;
  if (firstSyntaxError(text) === undefined) warn(duplicateKeys(text), text, 0);
  else for (const { line, lineNumber } of nonBlankLines(text)) warn(duplicateKeys(line), line, lineNumber - 1);
  return problems.slice(0, 100);
}

/**
 * A run-folder file (gold.jsonl, responses.jsonl, …) is checked with its folder: the scorer reads
 * every file of the run with its schema, so a clean deterministic scoring pass is a full check.
 */
function validateRunFile(path: string, displayName: string): Problem[] {
  let duplicates: Problem[] = [];
  try {
    duplicates = duplicateKeyWarnings(readTextFile(path, displayName), displayName);
    scoreRunFolderSync(dirname(path));
    return duplicates;
  } catch (error) {
    return [...duplicates, problemFromError(displayName, error)];
  }
}

/** Schema and consistency check of any supported file: one problem per finding, never a throw. */
export function validateFile(path: string, displayName = path, options: { format?: TrajectoryFormat } = {}): Problem[] {
  if (KNOWN_RUN_FILES.has(basename(path))) return validateRunFile(path, displayName);
  let text: string;
  try {
    text = readTextFile(path, displayName);
  } catch (error) {
    return [problemFromError(displayName, error)];
  }
  const ctx: Ctx = { file: displayName, text, problems: duplicateKeyWarnings(text, displayName) };
  try {
    if (path.endsWith('.audit.json')) {
      const sidecar = parseSidecar(text, displayName);
      checkSidecarAgainstTrajectory(ctx, sidecar, path);
      return ctx.problems;
    }
    const loaded = loadText(text, displayName, options);
    ctx.problems.push(...loaded.problems);
    const lines = loaded.container === 'jsonl' ? text.split('\n') : [];
    for (const record of loaded.records) {
      const base: JsonPath = loaded.container === 'json-array' ? [loaded.records.indexOf(record)] : [];
      if (isTrajectoryRecord(record)) {
        if (loaded.container === 'jsonl' && record.line) {
          const lineCtx: Ctx = { ...ctx, text: lines[record.line - 1] ?? '' };
          checkTrajectory(lineCtx, record.trajectory, base, record.line - 1);
        } else checkTrajectory(ctx, record.trajectory, base, 0);
      } else if (record.kind === 'run-manifest') checkManifest(ctx, record, path);
      else if (record.kind === 'audit-sidecar') checkSidecarAgainstTrajectory(ctx, record.sidecar, path);
    }
  } catch (error) {
    ctx.problems.push(problemFromError(displayName, error));
  }
  return ctx.problems;
}
