// Load speed (issue 15 item 6) of the JSONL pipeline and the session readers' detection: the
// parsed lines are kept in lists sized once, a line's text is cut out again from its start only
// for a record read on its own, the Codex and Claude Code line detects walk the lines once without
// a filtered copy, and messages without calls share one frozen empty list. These pin what each
// rewritten path gives on the cases the bench files do not have.
import assert from 'node:assert/strict';
import { forEachNonBlankLine, lineCountOf, lineStartingAt } from '../../../src/core/input/jsonText';
import { loadText } from '../../../src/core/load/loadFile';
import { readerFor } from '../../../src/core/formats/registry';
import type { Trajectory } from '../../../src/core/model/trajectory';
import { onlyTrajectory } from '../helpers';

function linesOf(text: string): [string, number, number][] {
  const seen: [string, number, number][] = [];
  forEachNonBlankLine(text, (line, lineNumber, start) => seen.push([line, lineNumber, start]));
  return seen;
}

describe('JSONL pipeline (issue 15 item 6)', () => {
  it('gives each non-blank line with its number and start, and lineStartingAt cuts the same line out again', () => {
    const text = '{"a":1}\r\n\r\n  \n{"b":2}\n{"c":3}';
    const seen = linesOf(text);
    assert.deepEqual(seen, [
      ['{"a":1}', 1, 0],
      ['{"b":2}', 4, 14],
      ['{"c":3}', 5, 22],
    ]);
    for (const [line, , start] of seen) assert.equal(lineStartingAt(text, start), line);
    assert.deepEqual(linesOf('\n\n'), []);
    assert.equal(lineStartingAt('x\r', 0), 'x');
  });

  it('counts the lines a text can hold: line feeds + 1', () => {
    assert.equal(lineCountOf(''), 1);
    assert.equal(lineCountOf('{}'), 1);
    assert.equal(lineCountOf('{}\n{}\n'), 3);
    assert.equal(lineCountOf('\r\n\r\n\r\n'), 4);
  });

  it('a record read on its own gets its own line: an error names that line and the column in it (CRLF, blank and bad lines around)', () => {
    const record = (id: string) =>
      JSON.stringify({
        id,
        messages: [
          { role: 'user', content: `q ${id}` },
          { role: 'assistant', content: `a ${id}` },
        ],
      });
    const bad = '{"id": "bad", "messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": 5}]}';
    const text = [record('a'), '', 'not json', record('b'), bad, '   ', record('c')].join('\r\n');
    const loaded = loadText(text, 'records.jsonl');
    assert.equal(loaded.container, 'jsonl');
    assert.deepEqual(
      loaded.records.map((r) => [r.id, r.line]),
      [
        ['a', 1],
        ['b', 4],
        ['c', 7],
      ],
    );
    assert.deepEqual(
      loaded.problems.map((p) => [p.line, p.column, p.path]),
      [
        [3, 1, undefined],
        [5, bad.lastIndexOf('5') + 1, '$.messages[1].content'],
      ],
    );
    const trajectory = (loaded.records[2] as { trajectory: Trajectory }).trajectory;
    assert.equal(trajectory.query, 'q c');
  });
});

describe('session line detection in one pass (issue 15 item 6)', () => {
  const rollout = (type: string, payload: object) => ({ timestamp: '2025-09-22T14:00:00.000Z', type, payload });
  const codex = readerFor('codex')!;
  const claude = readerFor('claude-code')!;
  const session = { id: 's', timestamp: 't', cwd: '/w' };
  const item = { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'q' }] };

  it('codex: a full match with and without session_meta, near misses naming the first foreign line or the missing response items', () => {
    assert.equal(codex.detectLines!([rollout('session_meta', session), rollout('response_item', item)])?.score, 0.95);
    assert.equal(codex.detectLines!([rollout('event_msg', { type: 'x' }), rollout('response_item', item)])?.score, 0.9);
    const foreign = codex.detectLines!([rollout('session_meta', session), rollout('response_item', item), { other: 1 }, rollout('response_item', item)]);
    assert.equal(foreign?.score, 0.4);
    assert.match(foreign!.missing![0], /on JSON line 3$/);
    // A foreign first line with rollout lines after it is still a near miss, not "nothing of Codex".
    const foreignFirst = codex.detectLines!([{ other: 1 }, rollout('response_item', item)]);
    assert.match(foreignFirst!.missing![0], /on JSON line 1$/);
    assert.deepEqual(codex.detectLines!([rollout('session_meta', session), rollout('event_msg', { type: 'x' })])?.missing, ['`response_item` lines']);
    assert.equal(codex.detectLines!([{ other: 1 }, { other: 2 }]), undefined);
  });

  it('claude-code: no lines or no session line is nothing of it; a foreign line anywhere is a near miss naming it', () => {
    const line = (type: string) => ({ type, uuid: 'u', sessionId: 's', message: { role: type, content: 'hi' } });
    assert.equal(claude.detectLines!([]), undefined);
    assert.equal(claude.detectLines!([{ other: 1 }, { other: 2 }]), undefined);
    assert.equal(claude.detectLines!([line('user'), line('assistant')])?.score, 0.95);
    assert.match(claude.detectLines!([{ other: 1 }, line('user')])!.missing![0], /on JSON line 1$/);
    assert.match(claude.detectLines!([line('user'), line('assistant'), { other: 1 }])!.missing![0], /on JSON line 3$/);
    assert.deepEqual(claude.detectLines!([{ type: 'summary', summary: 's' }])?.missing, ['user or assistant lines with `message`']);
  });
});

describe('session messages without calls share one frozen empty list (issue 15 item 6)', () => {
  it('codex, gemini-cli and claude-code: empty and frozen where no call is made, a list of its own where one is', () => {
    const codexText = [
      rolloutLine('session_meta', { id: 's', cwd: '/w' }),
      rolloutLine('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'q' }] }),
      rolloutLine('response_item', { type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'c1' }),
      rolloutLine('response_item', { type: 'function_call_output', call_id: 'c1', output: 'a\nb' }),
      rolloutLine('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] }),
    ].join('\n');
    const geminiText = [
      JSON.stringify({ sessionId: 's', projectHash: 'p', startTime: 't' }),
      JSON.stringify({ id: 'u1', timestamp: 't', type: 'user', content: 'q' }),
      JSON.stringify({ id: 'g1', timestamp: 't', type: 'gemini', content: 'thinking', toolCalls: [] }),
      JSON.stringify({ id: 'g2', timestamp: 't', type: 'gemini', content: 'reading', toolCalls: [{ id: 'r1', name: 'read_file', args: { path: 'a' } }] }),
      JSON.stringify({ $set: { lastUpdated: 't' } }),
    ].join('\n');
    const claudeText = [
      JSON.stringify({ type: 'summary', summary: 'a session', leafUuid: 'x' }),
      JSON.stringify({ type: 'user', uuid: 'u1', sessionId: 's', message: { role: 'user', content: 'q' } }),
      JSON.stringify({
        type: 'assistant',
        uuid: 'a1',
        sessionId: 's',
        message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } }] },
      }),
    ].join('\n');
    // Calls per message, and the messages with a list of their own: those with a call, and Claude
    // Code's chat lines (their content blocks add the calls).
    for (const [text, calls, ownLists] of [
      [codexText, [0, 0, 1, 0, 0], [2]],
      [geminiText, [0, 0, 0, 1, 0], [3]],
      [claudeText, [0, 0, 1], [1, 2]],
    ] as const) {
      const t = onlyTrajectory(text, 'session.jsonl');
      assert.deepEqual(
        t.messages.map((m) => m.toolCalls.length),
        calls,
        t.format,
      );
      t.messages.forEach((m, i) => {
        if ((ownLists as readonly number[]).includes(i)) assert.equal(Object.isFrozen(m.toolCalls), false, `${t.format} message ${i}`);
        else assert.ok(Object.isFrozen(m.toolCalls), `${t.format} message ${i}: frozen, so no reader can add to the shared list`);
      });
    }
  });
});

function rolloutLine(type: string, payload: object): string {
  return JSON.stringify({ timestamp: '2025-09-22T14:00:00.000Z', type, payload });
}

describe('session readers drop each parsed line once read (issue 15 item 6)', () => {
  const codexLines = () => [
    JSON.parse(rolloutLine('session_meta', { id: 's', cwd: '/w', git: { branch: 'main' } })),
    JSON.parse(rolloutLine('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'q' }] })),
    JSON.parse(rolloutLine('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'a' }] })),
  ];

  it('codex and gemini-cli clear the pipeline list as they read it; what they kept of a line is still read', () => {
    const values: unknown[] = codexLines();
    const [record] = readerFor('codex')!.loadLines!(values, [1, 2, 3], { file: 'rollout.jsonl' });
    assert.deepEqual(values, [undefined, undefined, undefined]);
    assert.deepEqual(record.trajectory.metadata.git, { branch: 'main' });
    assert.equal(record.trajectory.predictedAnswer, 'a');
    const gemini: unknown[] = [
      { sessionId: 's', projectHash: 'p' },
      { id: 'u1', type: 'user', content: 'q' },
      { id: 'g1', type: 'gemini', content: '<answer>42</answer>', toolCalls: [{ name: 'read_file', result: 'page says <answer>7</answer>' }] },
    ];
    const [session] = readerFor('gemini-cli')!.loadLines!(gemini, [1, 2, 3], { file: 'chat.jsonl' });
    assert.deepEqual(gemini, [undefined, undefined, undefined]);
    // The answer is read from the message's own text, kept when its line was dropped, not from the result after it.
    assert.equal(session.trajectory.predictedAnswer, '42');
  });

  it("codex's reader of a JSON list of rollout lines leaves the caller's list as it was", () => {
    const lines = codexLines();
    const before = structuredClone(lines);
    const t = readerFor('codex')!.load(lines, { file: 'rollout.json' }, '0');
    assert.equal(t.messages.length, 3);
    assert.deepEqual(lines, before);
  });

  it('gemini-cli rewinds found before the lines are dropped: to a message, and to an id never seen (the whole conversation)', () => {
    const text = [
      { sessionId: 's', projectHash: 'p' },
      { id: 'u1', type: 'user', content: 'first' },
      { id: 'g1', type: 'gemini', content: 'one' },
      { id: 'u2', type: 'user', content: 'second' },
      { $rewindTo: 'u2' },
      { id: 'u3', type: 'user', content: 'third' },
      { $rewindTo: 'nowhere' },
      { id: 'u4', type: 'user', content: 'fourth' },
    ]
      .map((line) => JSON.stringify(line))
      .join('\n');
    const t = onlyTrajectory(text, 'chat.jsonl');
    assert.deepEqual(
      t.messages.map((m) => m.agent ?? m.role),
      ['session', 'rewound', 'rewound', 'rewound', 'rewind', 'rewound', 'rewind', 'user'],
    );
    assert.equal(t.metadata.rewinds, 2);
  });
});
