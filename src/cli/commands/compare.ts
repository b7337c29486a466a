// `trajaudit compare <a> <b> [--record-a ID --record-b ID] [--json] [--format ID]`
//
// Two trajectories of the same query aligned by decision step (src/core/collections/align.ts says
// when two steps align). Reads only.
import { alignDecisionSteps } from '../../core/collections/align';
import { InputError } from '../../core/input/inputError';
import { loadFile } from '../../core/load/loadFile';
import { isTrajectoryRecord } from '../../core/load/loadRecord';
import type { Message, Trajectory } from '../../core/model/trajectory';
import { CliUsageError, reportProblems, trajectoryFormatFrom, type CliIo } from '../io';
import { JSON_OPTION, TRAJECTORY_FORMAT_OPTION, type CliCommand } from '../options';
import { selectRecords } from './selectRecords';

interface Side {
  file: string;
  record: string;
  trajectory: Trajectory;
}

function sideOf(file: string, recordId: unknown, flag: string, values: Record<string, unknown>, io: CliIo): Side {
  const loaded = loadFile(file, { format: trajectoryFormatFrom(values) });
  reportProblems(loaded.problems, io);
  const trajectories = selectRecords(loaded, recordId).filter(isTrajectoryRecord);
  if (trajectories.length === 0) throw new InputError(file, `holds no trajectory (detected ${loaded.detection.kind})`);
  if (trajectories.length > 1) {
    const ids = trajectories
      .slice(0, 8)
      .map((r) => r.id)
      .join(', ');
    throw new InputError(file, `holds ${trajectories.length} trajectories (${ids}${trajectories.length > 8 ? ', …' : ''}); name one with ${flag} ID`);
  }
  return { file, record: trajectories[0].id, trajectory: trajectories[0].trajectory };
}

function preview(message: Message | undefined, width: number): string {
  if (!message) return '';
  const text = message.toolCalls.length
    ? message.toolCalls.map((c) => `${c.name}(${c.rawArguments.replace(/\s+/g, ' ')})`).join(' ')
    : `reply: ${message.content.replace(/\s+/g, ' ').trim()}`;
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

export function runCompare(positionals: string[], values: Record<string, unknown>, io: CliIo): number {
  if (positionals.length !== 2)
    throw new CliUsageError(positionals.length < 2 ? 'expects two trajectory files <a> <b>' : `expects two trajectory files, got ${positionals.length}`);
  const a = sideOf(positionals[0], values['record-a'], '--record-a', values, io);
  const b = sideOf(positionals[1], values['record-b'], '--record-b', values, io);
  const alignment = alignDecisionSteps(a.trajectory, b.trajectory);
  const side = (s: Side) => ({ file: s.file, record: s.record, decision_steps: s.trajectory.decisionSteps });
  if (values.json) {
    io.out(JSON.stringify({ a: side(a), b: side(b), pairs: alignment.pairs, first_divergence: alignment.firstDivergence }, null, 2));
    return 0;
  }
  const width = 48;
  const cell = (position: number | null, t: Trajectory) =>
    position === null ? '—'.padEnd(width + 6) : `${String(position).padStart(4)}  ${preview(t.messages[position], width).padEnd(width)}`;
  const divergence = alignment.firstDivergence;
  const lines = [
    `a: ${a.file}#${a.record} (${a.trajectory.decisionSteps.length} decision steps)`,
    `b: ${b.file}#${b.record} (${b.trajectory.decisionSteps.length} decision steps)`,
    divergence ? `first divergence: a ${divergence.a ?? '—'}, b ${divergence.b ?? '—'}` : 'the runs never diverge',
    '',
    `${'a'.padEnd(width + 6)}  ${'b'}`,
  ];
  let marked = false;
  for (const [x, y] of alignment.pairs) {
    const diverges = !marked && (x === null || y === null);
    if (diverges) marked = true;
    lines.push(`${cell(x, a.trajectory)}${diverges ? '>' : x === null || y === null ? '·' : '='} ${cell(y, b.trajectory)}`.trimEnd());
  }
  io.out(lines.join('\n'));
  return 0;
}

export const compareCommand: CliCommand = {
  name: 'compare',
  args: '<a> <b>',
  summary:
    'Two trajectories of the same query aligned by decision step: same tools with similar arguments (word-token Jaccard ≥ 0.5; replies by their text) align, in order; the first divergence is marked.',
  options: {
    ...JSON_OPTION,
    'record-a': { type: 'string', value: 'ID', help: 'the record of <a> (JSONL files and JSON arrays hold several)' },
    'record-b': { type: 'string', value: 'ID', help: 'the record of <b>' },
    ...TRAJECTORY_FORMAT_OPTION,
  },
  run: runCompare,
};
