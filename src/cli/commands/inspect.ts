import { loadFile } from '../../core/load/loadFile';
import { isTrajectoryRecord } from '../../core/load/loadRecord';
import { inspectOther, inspectTrajectory, type TrajectoryInspection } from '../../core/inspect/inspect';
import { oneFile, reportProblems, toolNamesFrom, trajectoryFormatFrom, type CliIo } from '../io';
import { JSON_OPTION, RECORD_OPTION, TOOL_NAME_OPTIONS, TRAJECTORY_FORMAT_OPTION, type CliCommand } from '../options';
import { selectRecords } from './selectRecords';

function human(r: TrajectoryInspection): string {
  const lines = [
    `format:          ${r.format}   record: ${r.id}`,
    `query:           ${r.query ? r.query.replace(/\s+/g, ' ').slice(0, 300) : '—'}`,
    `predicted:       ${r.predictedAnswer ? r.predictedAnswer.replace(/\s+/g, ' ').slice(0, 200) : '—'}`,
    `messages:        ${r.messages}   decision steps: ${r.decisionSteps.length}   final answer step: ${r.finalAnswerStep ?? '—'}`,
    `tool calls:      ${r.toolCalls}   atomic ops: ${r.atomicOps}   search: ${r.searchCalls}   visit: ${r.visitCalls}`,
    `tokens (o200k):  total ${r.tokens.total}   tool returns ${r.tokens.toolReturns}   reasoning ${r.tokens.reasoning}   predicted answer ${r.tokens.predictedAnswer}`,
  ];
  if (r.gold) {
    const pos = r.gold.criticalPosition === null ? '—' : `${(r.gold.criticalPosition * 100).toFixed(1)}%`;
    lines.push(
      `gold:            critical step ${r.gold.criticalStep ?? '—'}   span ${r.gold.toleranceSpan ? `[${r.gold.toleranceSpan.join(', ')}]` : '—'}   root cause ${r.gold.rootCause ?? '—'}   position ${pos}`,
    );
  }
  return lines.join('\n');
}

export function runInspect(positionals: string[], values: Record<string, unknown>, io: CliIo): number {
  const file = oneFile(positionals);
  const loaded = loadFile(file, { format: trajectoryFormatFrom(values) });
  const names = toolNamesFrom(values);
  const reports = selectRecords(loaded, values.record).map((r) => (isTrajectoryRecord(r) ? inspectTrajectory(r.trajectory, names) : inspectOther(r)));
  if (values.json) {
    const single = loaded.container === 'json' || typeof values.record === 'string';
    io.out(JSON.stringify(single ? reports[0] : reports, null, 2));
  } else {
    if (loaded.container !== 'json') io.out(`${file}: ${loaded.records.length} records (${loaded.container}, ${loaded.detection.kind})\n`);
    io.out(reports.map((r) => ('tokens' in r ? human(r as TrajectoryInspection) : JSON.stringify(r, null, 2))).join('\n\n'));
  }
  reportProblems(loaded.problems, io);
  return loaded.problems.length > 0 ? 1 : 0;
}

export const inspectCommand: CliCommand = {
  name: 'inspect',
  args: '<file>',
  summary: 'Format, counts and statistics of a trajectory file (or a benchmark item file: its kind and counts).',
  options: { ...JSON_OPTION, ...RECORD_OPTION, ...TRAJECTORY_FORMAT_OPTION, ...TOOL_NAME_OPTIONS },
  run: runInspect,
};
