// `trajaudit convert`: every fixture and sample trajectory, written as openai-chat (and as every
// other format with a writer) and read again, has the same messages, decision steps and tool calls.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { TRAJECTORY_READERS } from '../../../src/core/formats/registry';
import { loadFile, loadText } from '../../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../../src/core/load/loadRecord';
import type { Trajectory } from '../../../src/core/model/trajectory';
import { runCli, tempDir } from '../helpers';

const repo = join(__dirname, '..', '..', '..');
const NOT_INPUT = /\.(ts|js|mjs|md)$/;

function inputsUnder(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'broken' ? [] : inputsUnder(path);
    return entry.isFile() && !NOT_INPUT.test(entry.name) ? [path] : [];
  });
}

const inputs = [
  ...inputsUnder(join(repo, 'test', 'fixtures', 'formats')),
  ...inputsUnder(join(repo, 'samples', 'trajectories')).filter((f) => /\.jsonl?$/.test(f) && !f.endsWith('.audit.json') && !f.endsWith('.gold_nuggets.jsonl')),
];

/** What convert must keep: per message its text, reasoning, role as a decision step or not, and calls; the returns' links. */
function essence(t: Trajectory) {
  const decisions = new Set(t.decisionSteps);
  return {
    decisionSteps: t.decisionSteps,
    messages: t.messages.map((m) => ({
      position: m.position,
      role: decisions.has(m.position) ? 'assistant' : m.role === 'assistant' ? 'system' : m.role,
      content: m.content,
      reasoning: m.reasoning,
      // Valid arguments are compared as values (a target that stores them as JSON objects re-spaces the text); others as written.
      toolCalls: m.toolCalls.map((c) => ({ name: c.name, arguments: c.argumentsValid ? c.arguments : c.rawArguments, argumentsValid: c.argumentsValid })),
      toolCallIds: m.toolCalls.map((c) => c.id),
      issuedBy: m.issuedBy,
    })),
  };
}

for (const writer of TRAJECTORY_READERS.filter((reader) => reader.write)) {
  describe(`convert to ${writer.id}: read again, the same messages, decision steps and tool calls`, () => {
    it('has inputs to convert', () => assert.ok(inputs.length > 5));
    for (const file of inputs) {
      it(relative(repo, file), () => {
        const loaded = loadFile(file);
        for (const record of loaded.records.filter(isTrajectoryRecord)) {
          const { value, lost } = writer.write!(record.trajectory);
          assert.ok(Array.isArray(lost));
          const again = loadText(JSON.stringify(value, null, 2), `converted.json`);
          assert.equal(again.detection.kind, writer.id, `record ${record.id} read back as ${again.detection.kind}`);
          const [back] = again.records;
          assert.ok(isTrajectoryRecord(back));
          const [got, want] = [essence(back.trajectory), essence(record.trajectory)];
          // A writer may give calls ids the source did not have (a format that links returns by id needs them).
          got.messages.forEach((m, i) => (m.toolCallIds = m.toolCallIds.map((id, j) => (want.messages[i]?.toolCallIds[j] === undefined ? undefined : id))));
          // A role the target cannot hold (a tool return that answers no call) may change when `lost` says so for that message.
          got.messages.forEach((m, i) => {
            const source = want.messages[i];
            if (source && m.role !== source.role && lost.some((l) => new RegExp(`\\b(message|step|return) ${m.position}\\b`).test(l))) {
              m.role = source.role;
              m.issuedBy = source.issuedBy;
            }
          });
          assert.deepEqual(got, want, `record ${record.id}`);
          assert.equal(back.trajectory.query, record.trajectory.query, `record ${record.id} query`);
          // A source that records no predicted answer cannot say so in openai-chat, whose reader takes the final step's text (listed as lost).
          if (record.trajectory.predictedAnswer !== undefined || writer.id !== 'openai-chat')
            assert.equal(back.trajectory.predictedAnswer, record.trajectory.predictedAnswer, `record ${record.id} predicted answer`);
          else if (back.trajectory.predictedAnswer !== undefined)
            assert.ok(
              lost.some((l) => l.includes('predicted answer')),
              `record ${record.id}: lost names the predicted answer`,
            );
          assert.equal(back.trajectory.goldAnswer, record.trajectory.goldAnswer, `record ${record.id} gold answer`);
          assert.deepEqual(back.trajectory.metadata.outcome, record.trajectory.metadata.outcome, `record ${record.id} outcome`);
        }
      });
    }
  });
}

describe('trajaudit convert', () => {
  const sample = join(repo, 'samples', 'trajectories', 'who-and-when', 'whowhen-hc-1.json');

  it('writes atomically to --out, lists what the target cannot hold on stderr, and the result inspects the same', async () => {
    const dir = tempDir();
    const out = join(dir, 'converted.json');
    const result = await runCli(['convert', sample, '--to', 'openai-chat', '--out', out]);
    assert.equal(result.code, 0, result.err);
    assert.equal(result.out, '');
    assert.match(result.err, /record 0: lost in openai-chat: the gold mistake agent/);
    assert.deepEqual(readdirSync(dir), ['converted.json'], 'no temp file left');
    const before = JSON.parse((await runCli(['inspect', sample, '--json'])).out) as Record<string, unknown>;
    const after = JSON.parse((await runCli(['inspect', out, '--json'])).out) as Record<string, unknown>;
    for (const key of ['messages', 'decisionSteps', 'toolCalls', 'finalAnswerStep', 'query', 'predictedAnswer']) assert.deepEqual(after[key], before[key], key);
    assert.equal(after.format, 'openai-chat');
  });

  it('prints to stdout without --out; several records as JSONL unless --record picks one', async () => {
    const batch = join(repo, 'samples', 'trajectories', 'searchauditbench', 'batch.traj.jsonl');
    const all = await runCli(['convert', batch, '--to', 'openai-chat']);
    assert.equal(all.code, 0, all.err);
    const lines = all.out.split('\n');
    assert.equal(lines.length, loadFile(batch).records.length);
    for (const line of lines) assert.ok(Array.isArray((JSON.parse(line) as { messages: unknown }).messages));
    const id = loadFile(batch).records[1].id;
    const one = await runCli(['convert', batch, '--to', 'openai-chat', '--record', id]);
    assert.ok(Array.isArray((JSON.parse(one.out) as { messages: unknown }).messages));
  });

  it('refuses a target without a writer, a missing --to and --out onto the input (exit 2), and leaves the input as it was', async () => {
    const before = readFileSync(sample, 'utf8');
    for (const args of [
      ['convert', sample, '--to', 'who-and-when'],
      ['convert', sample],
      ['convert', sample, '--to', 'openai-chat', '--out', sample],
    ]) {
      const result = await runCli(args);
      assert.equal(result.code, 2, args.join(' '));
      assert.match(result.err, /^trajaudit convert: /);
    }
    assert.equal(readFileSync(sample, 'utf8'), before);
  });
});
