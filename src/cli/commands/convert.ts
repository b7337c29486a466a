import { resolve } from 'node:path';
import { writeFileAtomic } from '../../core/files/atomicWrite';
import { InputError } from '../../core/input/inputError';
import { readerFor, TRAJECTORY_READERS, type TrajectoryReader } from '../../core/formats/registry';
import { loadFile } from '../../core/load/loadFile';
import { isTrajectoryRecord } from '../../core/load/loadRecord';
import type { TrajectoryFormat } from '../../core/model/trajectory';
import { CliUsageError, oneFile, reportProblems, trajectoryFormatFrom, type CliIo } from '../io';
import { RECORD_OPTION, TRAJECTORY_FORMAT_OPTION, type CliCommand } from '../options';
import { selectRecords } from './selectRecords';

/** The formats a trajectory can be written in: the readers that have a writer. */
export function writableFormats(): TrajectoryFormat[] {
  return TRAJECTORY_READERS.filter((reader) => reader.write).map((reader) => reader.id);
}

function targetOf(values: Record<string, unknown>): TrajectoryReader & Required<Pick<TrajectoryReader, 'write'>> {
  const to = values.to;
  const writable = writableFormats();
  if (typeof to !== 'string') throw new CliUsageError(`--to is required: one of ${writable.join(', ')}`);
  const reader = readerFor(to as TrajectoryFormat);
  if (!reader?.write) throw new CliUsageError(`--to ${JSON.stringify(to)}: trajectories can be written as ${writable.join(', ')}`);
  return reader as TrajectoryReader & Required<Pick<TrajectoryReader, 'write'>>;
}

/**
 * `trajaudit convert <file> --to ID [--record ID] [--out F]`: one record is written as one JSON
 * document, several as JSONL (one per line, as the loader reads them back); what the target
 * cannot hold is listed on stderr, one line each.
 */
export function runConvert(positionals: string[], values: Record<string, unknown>, io: CliIo): number {
  const file = oneFile(positionals);
  const target = targetOf(values);
  const out = typeof values.out === 'string' ? values.out : undefined;
  if (out !== undefined && resolve(out) === resolve(file)) throw new CliUsageError('--out is the input file; a source file is never overwritten');
  const loaded = loadFile(file, { format: trajectoryFormatFrom(values) });
  const records = selectRecords(loaded, values.record).filter(isTrajectoryRecord);
  if (records.length === 0) throw new InputError(file, `is a ${loaded.detection.kind}, not a trajectory; convert needs a trajectory`);
  const written = records.map((record) => {
    const { value, lost } = target.write(record.trajectory);
    for (const what of lost) io.err(`${file}: record ${record.id}: lost in ${target.id}: ${what}`);
    return value;
  });
  const single = written.length === 1 && (loaded.container === 'json' || typeof values.record === 'string');
  const text = single ? `${JSON.stringify(written[0], null, 2)}\n` : written.map((value) => `${JSON.stringify(value)}\n`).join('');
  if (out !== undefined) {
    writeFileAtomic(out, text);
    io.err(`${file}: ${written.length} record(s) written to ${out} as ${target.id}`);
  } else io.out(text.replace(/\n$/, ''));
  reportProblems(loaded.problems, io);
  return loaded.problems.length > 0 ? 1 : 0;
}

export const convertCommand: CliCommand = {
  name: 'convert',
  args: '<file>',
  summary: 'Writes a trajectory in another format (openai-chat, atif); what the target cannot hold is listed on stderr.',
  options: {
    to: { type: 'string', value: 'ID', help: 'the target format: openai-chat or atif', required: true },
    ...RECORD_OPTION,
    out: { type: 'string', value: 'F', help: 'write here (atomically) instead of stdout; several records are written as JSONL' },
    ...TRAJECTORY_FORMAT_OPTION,
  },
  run: runConvert,
};
