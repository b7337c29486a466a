// Magentic-One's log.jsonl (its LogHandler: one event a line): read as one trajectory, message i = line i.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AMBIGUITY_MARGIN, decide, rankLineFormats } from '../../../src/core/formats/registry';
import { InputError } from '../../../src/core/input/inputError';
import { loadFile, loadText } from '../../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../../src/core/load/loadRecord';

const FIXTURE = join(__dirname, '..', '..', 'fixtures', 'formats', 'magentic-one', 'log.jsonl');
const LINES = readFileSync(FIXTURE, 'utf8').trimEnd().split('\n');

describe('magentic-one log.jsonl', () => {
  it('reads one run: message i is line i, the task, browser actions as tool calls, LLM calls as notes, the final answer', () => {
    const loaded = loadFile(FIXTURE);
    assert.equal(loaded.detection.kind, 'magentic-one');
    assert.equal(loaded.container, 'jsonl-session');
    assert.deepEqual(loaded.problems, []);
    assert.equal(loaded.records.length, 1);
    const record = loaded.records[0];
    assert.ok(isTrajectoryRecord(record));
    const t = record.trajectory;
    assert.equal(t.messages.length, LINES.length);
    LINES.forEach((line, i) => {
      const event = JSON.parse(line) as { type: string; source?: string; message?: string };
      const m = t.messages[i];
      assert.equal(m.position, i);
      if (event.type === 'LLMCallEvent') assert.equal(m.role, 'system', `line ${i + 1}`);
      else assert.equal(m.content, event.message, `line ${i + 1}`);
    });
    assert.equal(t.messages[0].role, 'user');
    assert.ok(t.query?.startsWith('How many studio albums'));
    const calls = t.messages.flatMap((m) => m.toolCalls.map((c) => ({ position: m.position, name: c.name, arguments: c.arguments })));
    assert.deepEqual(calls, [
      { position: 7, name: 'web_search', arguments: { query: 'Lanterns Over Kestrel Bay band' } },
      { position: 9, name: 'visit_url', arguments: { url: 'https://music.example.org/wiki/The_Gull_Lights_discography' } },
    ]);
    assert.deepEqual(t.decisionSteps, [2, 4, 5, 7, 9, 10, 12, 13, 15, 16]);
    assert.equal(t.predictedAnswer, '3');
    assert.equal(t.finalAnswerStep, 15);
    assert.deepEqual(t.metadata.tokens, { prompt: 13402, completion: 654 });
  });

  it('is detected as magentic-one, clear of every other session format', () => {
    const ranking = rankLineFormats(LINES.map((line): unknown => JSON.parse(line)));
    const verdict = decide(ranking);
    assert.equal(verdict.kind, 'reader');
    assert.equal(ranking[0].reader.id, 'magentic-one');
    if (ranking[1]) assert.ok(ranking[0].score - ranking[1].score >= AMBIGUITY_MARGIN - 1e-9, `${ranking[1].reader.id} ${ranking[1].score}`);
  });

  it('a late event without its message is refused with the line and the field', () => {
    const events = Array.from({ length: 80 }, (_, i) =>
      JSON.stringify({
        timestamp: `2024-11-05T10:00:${String(i % 60).padStart(2, '0')}`,
        source: 'Orchestrator (thought)',
        message: `step ${i}`,
        type: 'OrchestrationEvent',
      }),
    );
    events[70] = JSON.stringify({ timestamp: '2024-11-05T10:01:10', source: 'WebSurfer', text: 'no message key', type: 'OrchestrationEvent' });
    assert.throws(
      () => loadText(events.join('\n') + '\n', 'late.jsonl'),
      (error: unknown) => error instanceof InputError && /^late\.jsonl:71:\d+: .*\$\.message/.test(error.message) && !/\n/.test(error.message),
    );
  });
});
