import { mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { childPath, safeNameComponent } from '../files/safeName';
import { loadText } from '../load/loadFile';
import { isTrajectoryRecord, type TrajectoryRecord } from '../load/loadRecord';
import { readTextFile } from '../input/readText';
import { markdownText } from '../markdown/markdownText';
import { ROOT_CAUSE_LABELS, normalizeRootCause } from '../model/rootCauses';
import type { Trajectory } from '../model/trajectory';
import type { AuditEntry } from '../sidecar/schema';
import { writeFileAtomic } from '../files/atomicWrite';
import { readSidecar, sidecarPathFor } from '../sidecar/sidecarFile';
import { newestAudit } from '../audit/newest';

export interface RepairEntry {
  file: string;
  record: string;
  format: string;
  method: string;
  model: string | null;
  auditId: string;
  criticalStep: number;
  rootCause: string;
  rationale: string;
  directives: string[];
}

export interface RepairSource extends RepairEntry {
  trajectory: Trajectory;
  /** The record's source JSON as written in the file, for resume payloads in its own format. */
  raw: unknown;
}

/** Trajectory files under a path: the file itself, or the JSON/JSONL files of a folder (sidecars excluded). */
export function trajectoryFilesUnder(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(json|jsonl)$/i.test(e.name) && !e.name.endsWith('.audit.json') && !e.name.endsWith('.resume.json'))
    .map((e) => join(e.parentPath, e.name))
    .filter((f) => {
      try {
        return statSync(sidecarPathFor(f)).isFile();
      } catch {
        return false;
      }
    })
    .sort();
}

function rawRecords(text: string, container: string): (record: TrajectoryRecord, index: number) => unknown {
  if (container === 'jsonl') {
    const lines = text.split('\n');
    return (record) => JSON.parse(lines[(record.line ?? 1) - 1]);
  }
  const value = JSON.parse(text);
  return (_record, index) => (container === 'json-array' ? (value as unknown[])[index] : value);
}

/** The audit whose repair is exported: the newest, or the newest of `method`. */
export function chooseAudit(audits: AuditEntry[] | null | undefined, method?: string): AuditEntry | undefined {
  const withRepair = (audits ?? []).filter((a) => a.diagnosis && typeof a.diagnosis.criticalStep === 'number' && a.repair?.directives?.length);
  return newestAudit(withRepair, method);
}

/** Every trajectory record under `path` whose sidecar holds an audit with a repair. */
export function collectRepairs(path: string, method?: string): { sources: RepairSource[]; skipped: string[] } {
  const sources: RepairSource[] = [];
  const skipped: string[] = [];
  for (const file of trajectoryFilesUnder(path)) {
    const sidecar = readSidecar(sidecarPathFor(file));
    const text = readTextFile(file);
    const loaded = loadText(text, file);
    const rawOf = rawRecords(text, loaded.container);
    loaded.records.forEach((record, index) => {
      if (!isTrajectoryRecord(record)) return;
      const audit = chooseAudit(sidecar?.records[record.id]?.audits, method);
      if (!audit) {
        skipped.push(`${file} record ${record.id}: no audit${method ? ` by ${method}` : ''} with a repair`);
        return;
      }
      const d = audit.diagnosis!;
      sources.push({
        file,
        record: record.id,
        format: record.trajectory.format,
        method: audit.method,
        model: audit.model ?? null,
        auditId: audit.id,
        criticalStep: d.criticalStep!,
        rootCause: d.rootCause ?? 'unknown',
        rationale: d.rationale ?? '',
        directives: audit.repair!.directives,
        trajectory: record.trajectory,
        raw: rawOf(record, index),
      });
    });
  }
  return { sources, skipped };
}

export function toEntry(source: RepairSource): RepairEntry {
  const { trajectory: _t, raw: _r, ...entry } = source;
  return entry;
}

export function repairsAsJsonl(sources: RepairSource[]): string {
  return sources.map((s) => JSON.stringify(toEntry(s))).join('\n') + (sources.length ? '\n' : '');
}

export function repairsAsMarkdown(sources: RepairSource[]): string {
  const lines = ['# Repair directives', ''];
  for (const s of sources) {
    const cause = normalizeRootCause(s.rootCause);
    // Every piece of data is inert text (markdownText): queries are scraped, rationales written by models.
    lines.push(`## ${markdownText(basename(s.file))} — record ${markdownText(s.record)}`, '');
    lines.push(`- Query: ${markdownText(s.trajectory.query ?? '')}`);
    lines.push(
      `- Critical step: ${s.criticalStep} · Root cause: ${markdownText(cause ? ROOT_CAUSE_LABELS[cause] : s.rootCause)} · Audit: ${markdownText(s.method)}${s.model ? ` (${markdownText(s.model)})` : ''}`,
    );
    if (s.rationale) lines.push(`- Diagnosis: ${markdownText(s.rationale)}`);
    lines.push('', ...s.directives.map((d, i) => `${i + 1}. ${markdownText(d)}`), '');
  }
  return lines.join('\n');
}

/** The user message that carries a repair back into the agent (seed 002 §5.4). */
export function repairMessage(directives: string[]): string {
  return ['Before you continue, revise your approach from this point on:', ...directives.map((d, i) => `${i + 1}. ${d}`)].join('\n');
}

/**
 * Resume payload: the message prefix before the predicted critical step (so the agent re-takes
 * that decision) plus the repair as a user message — in the trajectory's own format where the
 * format is a message list (openai-chat, searchauditbench, anthropic, tongyi-react), else as
 * OpenAI chat messages built from the canonical trajectory.
 */
export function resumePayload(source: RepairSource): { format: string; payload: unknown } {
  const k = source.criticalStep;
  const message = repairMessage(source.directives);
  const raw = source.raw as Record<string, unknown> | unknown[];
  const meta = {
    trajaudit: { file: basename(source.file), record: source.record, criticalStep: k, rootCause: source.rootCause, auditId: source.auditId, resumeFrom: k },
  };
  switch (source.format) {
    case 'openai-chat': {
      const list = (Array.isArray(raw) ? raw : (raw as { messages: unknown[] }).messages).slice(0, k);
      return { format: 'openai-chat', payload: { ...meta, messages: [...list, { role: 'user', content: message }] } };
    }
    case 'searchauditbench': {
      const obj = raw as { trajectory: unknown[]; query?: unknown };
      return { format: 'openai-chat', payload: { ...meta, query: obj.query, messages: [...obj.trajectory.slice(0, k), { role: 'user', content: message }] } };
    }
    case 'anthropic': {
      const obj = raw as { system?: unknown; messages: unknown[] };
      return {
        format: 'anthropic',
        payload: {
          ...meta,
          ...(obj.system !== undefined ? { system: obj.system } : {}),
          messages: [...obj.messages.slice(0, k), { role: 'user', content: message }],
        },
      };
    }
    case 'tongyi-react': {
      const obj = raw as { question?: unknown; messages: unknown[] };
      return {
        format: 'tongyi-react',
        payload: { ...meta, question: obj.question, messages: [...obj.messages.slice(0, k), { role: 'user', content: message }] },
      };
    }
    default: {
      const messages = source.trajectory.messages.slice(0, k).map((m) => ({
        role: m.role === 'tool' ? 'user' : m.role,
        ...(m.agent ? { name: m.agent.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) } : {}),
        content: m.content,
      }));
      return { format: 'openai-chat', payload: { ...meta, messages: [...messages, { role: 'user', content: message }] } };
    }
  }
}

const TRAJECTORY_EXTENSION = /(\.traj|\.trajectory)?\.(jsonl?)$/i;

/**
 * File names for the resume payloads of `sources` in one folder: `<file name>[.<record>].resume.json`
 * (the record part left out for record "0", a single-trajectory file), every part built with
 * safeNameComponent so no id names a path outside the folder. Two trajectory files of one name in
 * different subfolders of `root` get their path relative to `root` instead; names stay unique.
 */
export function resumeFileNames(sources: readonly RepairSource[], root: string): string[] {
  const used = new Set<string>();
  return sources.map((s) => {
    const record = s.record === '0' ? '' : `.${safeNameComponent(s.record)}`;
    const stems = [safeNameComponent(basename(s.file).replace(TRAJECTORY_EXTENSION, '')), safeNameComponent(relative(root, s.file).split(/[\\/]/).join('/'))];
    let name = stems.map((stem) => `${stem}${record}.resume.json`).find((c) => !used.has(c.toLowerCase()));
    for (let n = 2; name === undefined; n++) {
      const numbered = `${stems[1]}~${n}${record}.resume.json`;
      if (!used.has(numbered.toLowerCase())) name = numbered;
    }
    used.add(name.toLowerCase());
    return name;
  });
}

/** Writes one resume payload per source into `folder` (see resumeFileNames); returns the paths. */
export function writeResumePayloads(sources: readonly RepairSource[], folder: string, root: string): string[] {
  mkdirSync(folder, { recursive: true });
  const names = resumeFileNames(sources, root);
  return sources.map((source, i) => {
    const path = childPath(folder, names[i]);
    writeFileAtomic(path, `${JSON.stringify(resumePayload(source).payload, null, 2)}\n`);
    return path;
  });
}

export function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}
