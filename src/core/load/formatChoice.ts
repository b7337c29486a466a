// "Reopen as format…" (the editor's command): the pick list of readers and the per-file choices
// kept for the workspace. Pure; src/extension/commands/reopenAsFormat.ts shows and stores them.
import { TRAJECTORY_READERS } from '../formats/registry';
import type { TrajectoryFormat } from '../model/trajectory';

export interface FormatPick {
  id: TrajectoryFormat;
  /** The reader's name ("SWE-agent .traj"). */
  label: string;
  /** The id, and whether detection chose it or the file is read with it now. */
  description: string;
}

/** Every reader, the detected one first; each marked detected and/or in use. */
export function formatPicks(detected: TrajectoryFormat | undefined, current: TrajectoryFormat | undefined): FormatPick[] {
  const picks = TRAJECTORY_READERS.map((reader): FormatPick => {
    const marks = [reader.id === detected ? 'detected' : '', reader.id === current ? 'in use' : ''].filter(Boolean);
    return { id: reader.id, label: reader.label, description: [reader.id, ...marks].join(' · ') };
  });
  return [...picks.filter((p) => p.id === detected), ...picks.filter((p) => p.id !== detected)];
}

/** The per-file choices after choosing `chosen` for `file`: choosing the detected format forgets the choice. */
export function withFormatChoice(
  choices: Readonly<Record<string, TrajectoryFormat>>,
  file: string,
  chosen: TrajectoryFormat,
  detected: TrajectoryFormat | undefined,
): Record<string, TrajectoryFormat> {
  const next = { ...choices };
  if (chosen === detected) delete next[file];
  else next[file] = chosen;
  return next;
}

/** A stored choice, kept only while it names a reader (a stored id may come from another version). */
export function formatChoiceFor(choices: unknown, file: string): TrajectoryFormat | undefined {
  if (typeof choices !== 'object' || choices === null || !Object.hasOwn(choices, file)) return undefined;
  const value = (choices as Record<string, unknown>)[file];
  return TRAJECTORY_READERS.some((reader) => reader.id === value) ? (value as TrajectoryFormat) : undefined;
}
