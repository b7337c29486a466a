// Coding-agent session readers (issue 15): Claude Code session JSONL, Codex CLI rollouts and
// Gemini CLI sessions, loaded from test/fixtures/formats/<id>/ through loadFile. A session file
// is one trajectory and message i is line i (or messages[i] / history[i] of a JSON file).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeLarge as largeClaudeCode } from '../../bench/formats/claude-code';
import { makeLarge as largeCodex } from '../../bench/formats/codex';
import { makeLarge as largeGemini } from '../../bench/formats/gemini-cli';
import { AMBIGUITY_MARGIN, FULL_MATCH, rankFormats, rankLineFormats, readerFor } from '../../../src/core/formats/registry';
import { InputError } from '../../../src/core/input/inputError';
import { loadFile, loadText } from '../../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../../src/core/load/loadRecord';
import type { Trajectory, TrajectoryFormat } from '../../../src/core/model/trajectory';
import { runCli } from '../helpers';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'formats');
const CLAUDE = join(FIXTURES, 'claude-code', 'session.jsonl');
const CODEX = join(FIXTURES, 'codex', 'rollout-2025-09-22T14-03-00-0199706a-3c1e-7b52-a0d4-5e8f21c9b7aa.jsonl');
const CODEX_LEGACY = join(FIXTURES, 'codex', 'rollout-legacy.jsonl');
const CODEX_TS = join(FIXTURES, 'codex', 'rollout-typescript.json');
const CODEX_EXEC = join(FIXTURES, 'codex', 'exec-json.jsonl');
const GEMINI = join(FIXTURES, 'gemini-cli', 'session-2025-10-03T16-20-3b6f0a2e.jsonl');
const GEMINI_JSON = join(FIXTURES, 'gemini-cli', 'session-2025-08-11T07-45-e8d1c4b7.json');
const GEMINI_CHECKPOINT = join(FIXTURES, 'gemini-cli', 'checkpoint-render.json');
const SESSION_FORMATS: TrajectoryFormat[] = ['claude-code', 'codex', 'gemini-cli'];

function only(path: string): Trajectory {
  const loaded = loadFile(path);
  assert.deepEqual(loaded.problems, [], 'no record problems');
  assert.equal(loaded.records.length, 1, 'one file is one session');
  const record = loaded.records[0];
  assert.ok(isTrajectoryRecord(record));
  assert.equal(record.id, '0', 'a single-trajectory file keys its sidecar entry "0"');
  return record.trajectory;
}

function textOnly(text: string, name: string): Trajectory {
  const record = loadText(text, name).records[0];
  assert.ok(isTrajectoryRecord(record));
  return record.trajectory;
}

/** The error loading `text` throws (an InputError: one line, never a stack trace). */
function loadError(text: string, name: string): string {
  try {
    loadText(text, name);
  } catch (error) {
    assert.ok(error instanceof InputError, `an InputError, got ${String(error)}`);
    assert.ok(!error.message.includes('\n'), 'one line');
    return error.message;
  }
  assert.fail(`${name} loaded`);
}

const linesOf = (path: string) => readFileSync(path, 'utf8').trimEnd().split('\n');
/** The lines with line `index` changed by `change` (a parsed copy). */
function withLine(lines: string[], index: number, change: (line: Record<string, any>) => void): string {
  const copy = [...lines];
  const value = JSON.parse(copy[index]) as Record<string, any>;
  change(value);
  copy[index] = JSON.stringify(value);
  return copy.join('\n') + '\n';
}

const roles = (t: Trajectory) => t.messages.map((m) => m.role);
const calls = (t: Trajectory) => t.messages.flatMap((m) => m.toolCalls.map((c) => c.name));
const returns = (t: Trajectory) => t.messages.filter((m) => m.role === 'tool').map((m) => [m.position, m.issuedBy, m.toolCallId]);

describe('claude-code: Claude Code session JSONL', () => {
  it('one message per line: chat lines as Anthropic messages, tool_result lines as tool returns, summary/snapshot/meta/system lines as system', () => {
    const t = only(CLAUDE);
    assert.equal(t.format, 'claude-code');
    assert.equal(t.messages.length, 21);
    assert.deepEqual(
      t.messages.map((m) => m.position),
      [...Array(21).keys()],
    );
    assert.deepEqual(roles(t), [
      'system', // summary
      'system', // file-history-snapshot
      'system', // isMeta caveat
      'user', // /clear command
      'user', // the prompt
      'assistant', // thinking
      'assistant', // text
      'assistant', // Grep
      'tool',
      'assistant', // Task
      'user', // sidechain prompt
      'assistant',
      'tool',
      'assistant',
      'tool', // the Task's result
      'assistant',
      'tool',
      'assistant',
      'tool',
      'system', // hook notice
      'assistant',
    ]);
    assert.equal(t.messages[0].content, 'Summary: Fix leap-year bug in parseDate');
    assert.equal(t.messages[3].agent, 'command');
    assert.deepEqual(t.decisionSteps, [5, 6, 7, 9, 11, 13, 15, 17, 20], 'summary, meta and tool-result lines are not decision steps');
    assert.equal(t.finalAnswerStep, 20);
    assert.equal(t.messages[5].reasoning, 'The failure is specific to Feb 29, so the month-length table is the first suspect.');
    assert.deepEqual(calls(t), ['Grep', 'Task', 'Read', 'Edit', 'Bash']);
    assert.deepEqual(t.messages[7].toolCalls[0].arguments, { pattern: 'daysInMonth', path: 'src', output_mode: 'content' });
    assert.deepEqual(returns(t), [
      [8, 7, 'toolu_01Grep'],
      [12, 11, 'toolu_01Read'],
      [14, 9, 'toolu_01Task'],
      [16, 15, 'toolu_01Edit'],
      [18, 17, 'toolu_01Bash'],
    ]);
    assert.equal(t.messages[18].isError, true, 'is_error: true');
    assert.equal(t.messages[16].isError, undefined);
    assert.equal(t.messages[14].content.startsWith('February always has 28 days'), true, 'a tool_result with block content');
  });

  it('marks sidechain (subagent) lines and keeps them in place', () => {
    const t = only(CLAUDE);
    const sidechain = t.messages.filter((m) => m.agent === 'sidechain').map((m) => m.position);
    assert.deepEqual(sidechain, [10, 11, 12, 13]);
    assert.equal(t.metadata.sidechainMessages, 4);
    assert.equal(t.messages.filter((m) => m.role === 'user' && m.agent === undefined).length, 1, 'the only main-thread user line the user typed is the prompt');
  });

  it('query = the first typed prompt (not the caveat, the command or the sidechain prompt); predicted answer = the final text; session fields in metadata', () => {
    const t = only(CLAUDE);
    assert.equal(t.query, 'The test for parseDate fails for 2024-02-29. Find out why and fix it.');
    assert.equal(t.predictedAnswer?.startsWith('The day table ignored leap years.'), true);
    assert.equal(t.metadata.sessionId, '7d3c0f52-1b4e-4a8e-9f0a-2c6de1a4b901');
    assert.equal(t.metadata.cwd, '/home/dev/calendar');
    assert.equal(t.metadata.gitBranch, 'fix-leap-year');
    assert.equal(t.metadata.model, 'claude-sonnet-4-20250514');
    assert.deepEqual(t.metadata.summaries, ['Fix leap-year bug in parseDate']);
    // Seven responses (message ids), each written as one line per content block with the same usage: counted once each.
    assert.deepEqual(t.metadata.usage, { input_tokens: 840, output_tokens: 595, cache_creation_input_tokens: 14336, cache_read_input_tokens: 71680 });
  });

  it("a subagent's own file (all sidechain lines) takes the subagent's task as the query", () => {
    const lines = linesOf(CLAUDE);
    const t = textOnly(
      lines
        .slice(10, 14)
        .map((l) => JSON.stringify({ ...JSON.parse(l), agentId: 'a1b2c3d' }))
        .join('\n'),
      'agent-a1b2c3d.jsonl',
    );
    assert.equal(t.format, 'claude-code');
    assert.equal(t.query, 'Read src/date.ts and report how February is handled in leap years.');
    assert.deepEqual(
      t.messages.map((m) => m.agent),
      ['sidechain a1b2c3d', 'sidechain a1b2c3d', 'sidechain a1b2c3d', 'sidechain a1b2c3d'],
    );
    assert.equal(t.predictedAnswer?.startsWith('February always has 28 days'), true);
  });

  it('a session of only a caveat and a command has no query', () => {
    const lines = linesOf(CLAUDE);
    const t = textOnly([lines[2], lines[3]].join('\n'), 'commands.jsonl');
    assert.equal(t.format, 'claude-code');
    assert.equal(t.query, undefined);
  });

  it('an isMeta line of tool results stays a tool return', () => {
    const lines = linesOf(CLAUDE);
    const t = textOnly(
      withLine(lines, 8, (l) => (l.isMeta = true)),
      'meta.jsonl',
    );
    assert.equal(t.messages[8].role, 'tool');
    assert.equal(t.messages[8].issuedBy, 7);
  });
});

describe('codex: Codex CLI rollouts', () => {
  it('the {timestamp, type, payload} layout: response items as messages, events, turn context and session meta as system lines', () => {
    const t = only(CODEX);
    assert.equal(t.format, 'codex');
    assert.equal(t.messages.length, 18);
    assert.deepEqual(roles(t), [
      'system', // session_meta
      'user', // environment context
      'user', // the prompt
      'system', // event user_message (an echo of the prompt)
      'system', // turn_context
      'assistant', // reasoning
      'assistant', // shell
      'tool',
      'system', // token_count
      'assistant', // apply_patch
      'tool',
      'assistant', // shell
      'tool',
      'system', // exec_command_end
      'assistant', // web search
      'assistant', // the answer
      'system', // agent_message (an echo)
      'system', // token_count
    ]);
    assert.deepEqual(t.decisionSteps, [5, 6, 9, 11, 14, 15]);
    assert.equal(t.finalAnswerStep, 15);
    assert.equal(t.messages[1].agent, 'context');
    assert.equal(t.messages[5].reasoning, '**Locating the import command**\n\nFind where the import subcommand parses its flags.');
    assert.deepEqual(calls(t), ['shell', 'apply_patch', 'shell', 'web_search']);
    assert.deepEqual(t.messages[6].toolCalls[0].arguments, { command: ['bash', '-lc', 'rg -n "fn import" src'], workdir: '/home/dev/tally' });
    assert.equal((t.messages[9].toolCalls[0].arguments as { input: string }).input.startsWith('*** Begin Patch'), true, "apply_patch's free-text input");
    assert.deepEqual(t.messages[14].toolCalls[0].arguments, { type: 'search', query: 'clap derive bool flag default false' });
    assert.deepEqual(returns(t), [
      [7, 6, 'call_Q1shell'],
      [10, 9, 'call_Q2patch'],
      [12, 11, 'call_Q3test'],
    ]);
    assert.equal(t.messages[7].content, 'src/cli.rs:41:pub fn import(args: ImportArgs) -> Result<()> {\n', 'the shell output text, not its JSON envelope');
    assert.equal(t.messages[12].isError, true, 'exit code 101');
    assert.equal(t.messages[7].isError, undefined);
    assert.equal(t.messages[8].content.startsWith('[event token_count]'), true);
  });

  it('query skips the injected environment context; the last token_count is the session total; session meta in metadata', () => {
    const t = only(CODEX);
    assert.equal(t.query, 'Add a --dry-run flag to `tally import` that prints what would be imported without writing.');
    assert.equal(t.predictedAnswer?.startsWith('I added `--dry-run` to `ImportArgs`'), true);
    assert.deepEqual(t.metadata.tokenUsage, {
      input_tokens: 19422,
      cached_input_tokens: 12288,
      output_tokens: 911,
      reasoning_output_tokens: 448,
      total_tokens: 20333,
    });
    assert.equal(t.metadata.sessionId, '0199706a-3c1e-7b52-a0d4-5e8f21c9b7aa');
    assert.equal(t.metadata.cli_version, '0.39.0');
    assert.equal(t.metadata.model, 'gpt-5-codex');
    assert.deepEqual(t.metadata.git, { commit_hash: '4f2a9c1d7e', branch: 'main', repository_url: 'git@example.org:dev/tally.git' });
  });

  it('the legacy layout: a session line, bare ResponseItems and state lines', () => {
    const t = only(CODEX_LEGACY);
    assert.equal(t.format, 'codex');
    assert.deepEqual(roles(t), ['system', 'user', 'system', 'assistant', 'assistant', 'tool', 'system', 'assistant']);
    assert.deepEqual(t.decisionSteps, [3, 4, 7]);
    assert.deepEqual(returns(t), [[5, 4, 'call_L1']]);
    assert.equal(t.query, 'List the TODO comments left in src/ and say which is oldest.');
    assert.equal(t.metadata.sessionId, '5b1e7c40-2d9a-4f61-8c3e-9a07d2b4e118');
  });

  it("the TypeScript CLI's {session, items} JSON", () => {
    const t = only(CODEX_TS);
    assert.equal(t.format, 'codex');
    assert.deepEqual(roles(t), ['user', 'assistant', 'tool', 'assistant']);
    assert.deepEqual(returns(t), [[2, 1, 'call_T1']]);
    assert.equal(t.predictedAnswer, 'It compiles the TypeScript project with `tsc -p .`.');
    assert.equal(t.metadata.id, 'c2f1d0e8-7a3b-4c59-b1e6-0d8f4a2c9e71');
  });
  it('the `codex exec --json` stream: a started tool item is the call and its completed item the return; a completed-only item is the call with its output', () => {
    const t = only(CODEX_EXEC);
    assert.equal(t.format, 'codex');
    assert.deepEqual(roles(t), ['system', 'system', 'assistant', 'assistant', 'tool', 'assistant', 'assistant', 'tool', 'system', 'assistant', 'system']);
    assert.deepEqual(t.decisionSteps, [2, 3, 5, 6, 9]);
    assert.equal(t.messages[2].reasoning, '**Checking the failing test** before touching the parser.');
    assert.deepEqual(calls(t), ['shell', 'apply_patch', 'docs.search']);
    assert.deepEqual(t.messages[6].toolCalls[0].arguments, { query: 'collapse repeated dashes regex' });
    assert.deepEqual(returns(t), [
      [4, 3, 'item_1'],
      [7, 6, 'item_3'],
    ]);
    assert.equal(t.messages[4].isError, true, 'exit code 1');
    assert.equal(t.messages[4].content, "FAIL test/slug.test.js\n  expected 'a-b' but got 'a--b'\n");
    assert.equal(t.messages[5].content, 'update /work/slug/src/slug.js');
    assert.equal(t.messages[7].content, 'Use /-+/g to collapse runs of dashes.');
    assert.equal(t.messages[8].content, '[todo_list] [x] Fix dash collapsing\n[ ] Run the tests');
    assert.equal(t.query, undefined, 'the exec stream does not record the prompt');
    assert.equal(t.predictedAnswer, "Repeated separators now collapse to one dash; `slug('a  b')` gives `a-b`.");
    assert.deepEqual(t.metadata.usage, { input_tokens: 24763, cached_input_tokens: 24448, output_tokens: 122 });
    assert.equal(t.metadata.threadId, '019a2d7a-41c4-78b1-b7cc-a45d62a89cd5');
  });
});

describe('gemini-cli: Gemini CLI sessions', () => {
  it('the chat recording JSONL: one message per line, an updated message decides at its last record, tool results shown with their calls', () => {
    const t = only(GEMINI);
    assert.equal(t.format, 'gemini-cli');
    assert.equal(t.messages.length, 15);
    assert.deepEqual(roles(t), [
      'system', // metadata line
      'user',
      'system', // $set
      'system', // the first record of a gemini message written again at line 4
      'assistant',
      'system', // $set
      'system', // info
      'assistant',
      'user', // rewound
      'system', // $rewindTo
      'user',
      'assistant',
      'system', // error
      'assistant',
      'system', // $set
    ]);
    assert.deepEqual(t.decisionSteps, [4, 7, 11, 13], 'the earlier record of a message is not a second decision step');
    assert.equal(t.messages[3].agent, 'earlier record');
    assert.equal(t.messages[4].reasoning, "Tracing the missing module: TS2307 means an import path does not resolve; read the entry file's imports.");
    assert.deepEqual(calls(t), ['read_file', 'replace']);
    assert.deepEqual(t.messages[4].toolCalls[0], {
      id: 'read_file-1759508402113-6e1f',
      name: 'read_file',
      arguments: { absolute_path: '/home/dev/site/src/index.ts' },
      rawArguments: '{"absolute_path":"/home/dev/site/src/index.ts"}',
      argumentsValid: true,
    });
    assert.equal(t.messages[4].content, "[read_file result, success]\nimport { format } from './utils/format';\nimport { render } from './render';\n");
    assert.equal(t.messages[8].agent, 'rewound', 'the prompt a /rewind took back');
    assert.equal(t.messages[12].isError, true);
    assert.equal(t.query, 'Why does `npm run build` fail with TS2307 in src/index.ts?');
    assert.equal(t.predictedAnswer, 'Fixed: src/index.ts now imports `./util/format`, which resolves, so TS2307 is gone.');
    assert.equal(t.metadata.summary, 'Fix TS2307 import path', 'the last $set wins');
    assert.equal(t.metadata.rewinds, 1);
    assert.equal(t.metadata.model, 'gemini-2.5-pro, gemini-2.5-flash');
    assert.equal((t.metadata.tokens as { total: number }).total, 5454 + 5661 + 5867 + 5930, 'tokens of each message once (its last record)');
  });

  it('the older single-JSON session: messages[i] is message i', () => {
    const t = only(GEMINI_JSON);
    assert.equal(t.format, 'gemini-cli');
    assert.deepEqual(roles(t), ['user', 'assistant', 'assistant']);
    assert.deepEqual(t.decisionSteps, [1, 2]);
    assert.deepEqual(calls(t), ['search_file_content']);
    assert.equal(t.messages[1].content.includes('Found 3 matches in docs/'), true);
    assert.equal(t.predictedAnswer, 'There are 3 open TODOs: one in docs/setup.md and two in docs/api.md.');
    assert.equal(t.metadata.sessionId, 'e8d1c4b7-5a2f-4e90-9c36-1b7f0d2a8e55');
  });

  it('a /chat save checkpoint of Gemini Content: functionResponse turns are tool returns linked to the functionCall, the CLI context is not the query', () => {
    const t = only(GEMINI_CHECKPOINT);
    assert.equal(t.format, 'gemini-cli');
    assert.deepEqual(roles(t), ['user', 'assistant', 'user', 'assistant', 'tool', 'assistant']);
    assert.equal(t.messages[0].agent, 'context');
    assert.equal(t.query, 'Which file defines the render() function?');
    assert.equal(t.messages[3].reasoning, 'Looking for the definition of render.', 'a thought part');
    assert.deepEqual(returns(t), [[4, 3, 'search_file_content-1759509000000-c3']]);
    assert.equal(t.messages[4].content, 'Found 1 match:\nsrc/render.ts:7: export function render(node: Node): string {');
    assert.equal(t.predictedAnswer, 'render() is defined in src/render.ts at line 7.');
    assert.equal(t.metadata.authType, 'oauth-personal');
    // The bare-array form of a checkpoint reads the same.
    const history = JSON.parse(readFileSync(GEMINI_CHECKPOINT, 'utf8')).history as unknown[];
    const bare = textOnly(JSON.stringify(history, null, 2), 'checkpoint.json');
    assert.equal(bare.format, 'gemini-cli');
    assert.deepEqual(roles(bare), roles(t));
  });
});

describe('session formats: detection', () => {
  const jsonl = [CLAUDE, CODEX, CODEX_LEGACY, CODEX_EXEC, GEMINI];
  const json = [CODEX_TS, GEMINI_JSON, GEMINI_CHECKPOINT];
  const expected = (path: string) => path.split('/').at(-2) as TrajectoryFormat;
  const parsedLines = (path: string) => linesOf(path).map((l) => JSON.parse(l) as unknown);

  it('each session fixture is read as its format, clear of every other reader', () => {
    for (const path of jsonl) {
      const [best, second] = rankLineFormats(parsedLines(path));
      assert.equal(best.reader.id, expected(path), path);
      assert.ok(best.score >= FULL_MATCH);
      assert.ok(!second || second.score < FULL_MATCH || best.score - second.score >= AMBIGUITY_MARGIN, `${path}: runner-up ${second?.reader.id}`);
    }
    for (const path of json) {
      const [best, second] = rankFormats(JSON.parse(readFileSync(path, 'utf8')));
      assert.equal(best.reader.id, expected(path), path);
      assert.ok(
        !second || second.score < FULL_MATCH || best.score - second.score >= AMBIGUITY_MARGIN,
        `${path}: runner-up ${second?.reader.id} ${second?.score}`,
      );
    }
  });

  it('a Gemini checkpoint is never told its roles are wrong for an OpenAI chat list; a one-line Claude Code session is not a record of another format', () => {
    const history = JSON.parse(readFileSync(GEMINI_CHECKPOINT, 'utf8')).history as unknown[];
    const [best] = rankFormats(history);
    assert.equal(best.reader.id, 'gemini-cli');
    assert.equal(best.score - (rankFormats(history).find((m) => m.reader.id === 'openai-chat')?.score ?? 0) >= AMBIGUITY_MARGIN, true);
    for (const line of parsedLines(CLAUDE))
      assert.ok(
        rankFormats(line).every((m) => m.score < FULL_MATCH),
        JSON.stringify(line).slice(0, 80),
      );
  });

  it("the session readers stay off other formats' fixtures", () => {
    for (const folder of readdirSync(FIXTURES)) {
      if (SESSION_FORMATS.includes(folder as TrajectoryFormat)) continue;
      for (const file of readdirSync(join(FIXTURES, folder), { recursive: true, withFileTypes: true })) {
        if (!file.isFile() || !/\.(jsonl?|traj)$/.test(file.name)) continue;
        const path = join(file.parentPath, file.name);
        const text = readFileSync(path, 'utf8');
        let values: unknown[];
        try {
          values = [JSON.parse(text)];
        } catch {
          values = text
            .split('\n')
            .filter((l) => l.trim())
            .map((l) => JSON.parse(l) as unknown);
        }
        for (const id of SESSION_FORMATS) {
          const reader = readerFor(id)!;
          const lines = reader.detectLines?.(values);
          assert.ok(!lines || lines.score < FULL_MATCH, `${id} claims the lines of ${path}`);
          for (const value of values) {
            const match = reader.detect(value);
            assert.ok(!match || match.score < FULL_MATCH, `${id} claims ${path}`);
          }
        }
      }
    }
  });
});

describe('session formats: broken files', () => {
  it('a Claude Code chat line with a wrong content names the line:column, the JSON path and the format', () => {
    const text = withLine(linesOf(CLAUDE), 6, (l) => (l.message.content = 42));
    assert.match(
      loadError(text, 'cc.jsonl'),
      /^cc\.jsonl:7:\d+: at \$\.message\.content: unexpected number 42; expected the message content as a string or an array of content blocks \(a Claude Code chat line; format claude-code\)/,
    );
    assert.match(
      loadError(
        withLine(linesOf(CLAUDE), 6, (l) => delete l.message),
        'cc.jsonl',
      ),
      /^cc\.jsonl:7:1: at \$\.message: missing message; expected object \(a Claude Code chat line; format claude-code\)/,
    );
  });

  it('a foreign line in a Claude Code session, and a session of summaries only, name the format and what is missing', () => {
    const lines = linesOf(CLAUDE);
    const foreign = [...lines.slice(0, 5), linesOf(CODEX)[2], ...lines.slice(5)].join('\n');
    const message = loadError(foreign, 'mixed.jsonl');
    assert.match(message, /looks like Claude Code session \(`claude-code`\)/);
    assert.match(message, /session line shape .* on JSON line 6/);
    assert.match(loadError([lines[0], lines[1]].join('\n'), 'summaries.jsonl'), /Claude Code session .*lacks user or assistant lines with `message`/);
  });

  it('a truncated last line: the session still opens, the broken line is a problem naming its line', () => {
    const text = readFileSync(CLAUDE, 'utf8');
    const loaded = loadText(text.slice(0, text.length - 200), 'cut.jsonl');
    assert.equal(loaded.detection.kind, 'claude-code');
    const record = loaded.records[0];
    assert.ok(isTrajectoryRecord(record));
    assert.equal(record.trajectory.messages.length, 20);
    assert.equal(loaded.problems.length, 1);
    assert.equal(loaded.problems[0].line, 21);
  });

  it('Codex: a function call without a name, a message with string content, a line without payload', () => {
    const lines = linesOf(CODEX);
    assert.match(
      loadError(
        withLine(lines, 6, (l) => delete l.payload.name),
        'r.jsonl',
      ),
      /^r\.jsonl:7:\d+: at \$\.payload\.name: missing name; expected string \(a Codex function call; format codex\)$/,
    );
    assert.match(
      loadError(
        withLine(lines, 2, (l) => (l.payload.content = 'text')),
        'r.jsonl',
      ),
      /^r\.jsonl:3:\d+: at \$\.payload\.content: expected array, got the string "text" \(a Codex message item; format codex\)$/,
    );
    assert.match(
      loadError(
        withLine(lines, 5, (l) => delete l.payload),
        'r.jsonl',
      ),
      /looks like Codex CLI rollout \(`codex`\).*rollout line shape .* on JSON line 6/,
    );
    assert.match(
      loadError(
        withLine(linesOf(CODEX_EXEC), 3, (l) => delete l.item.id),
        'e.jsonl',
      ),
      /^e\.jsonl:4:\d+: at \$\.item\.id: missing id; expected string \(a codex exec --json item event; format codex\)$/,
    );
    const ts = JSON.parse(readFileSync(CODEX_TS, 'utf8'));
    ts.items[1].name = null;
    assert.match(
      loadError(JSON.stringify(ts, null, 2), 'ts.json'),
      /^ts\.json:\d+:\d+: at \$\.items\[1\]\.name: expected string, got null \(a Codex function call; format codex\)$/,
    );
  });

  it('Gemini: bad tool calls, a first line without projectHash, a checkpoint turn without parts', () => {
    const lines = linesOf(GEMINI);
    assert.match(
      loadError(
        withLine(lines, 11, (l) => (l.toolCalls = 'read_file')),
        'g.jsonl',
      ),
      /^g\.jsonl:12:\d+: at \$\.toolCalls: expected array, got the string "read_file" \(a Gemini CLI message record; format gemini-cli\)$/,
    );
    assert.match(
      loadError(
        withLine(lines, 0, (l) => delete l.projectHash),
        'g.jsonl',
      ),
      /looks like Gemini CLI session \(`gemini-cli`\).*lacks `projectHash` on the first line/,
    );
    const checkpoint = JSON.parse(readFileSync(GEMINI_CHECKPOINT, 'utf8'));
    delete checkpoint.history[3].parts;
    // Before Who&When required `content`, this was read as Who&When and refused for its `content`.
    assert.match(
      loadError(JSON.stringify(checkpoint, null, 2), 'c.json'),
      /^c\.json:\d+:\d+: at \$\.history\[3\]\.parts: missing parts; expected array \(a Gemini CLI checkpoint, a list of Content; format gemini-cli\)/,
    );
    const session = JSON.parse(readFileSync(GEMINI_JSON, 'utf8'));
    session.messages[1].toolCalls[0].name = 5;
    assert.match(
      loadError(JSON.stringify(session, null, 2), 's.json'),
      /^s\.json:\d+:\d+: at \$\.messages\[1\]\.toolCalls\[0\]\.name: expected string, got number 5 \(a Gemini CLI session; format gemini-cli\)$/,
    );
  });
});

describe('session formats: large generated sessions and the CLI', () => {
  it('large sessions load with the counts their generators make', () => {
    const rounds = 400;
    const claude = textOnly(largeClaudeCode(rounds), 'claude.jsonl');
    assert.equal(claude.format, 'claude-code');
    assert.equal(claude.messages.length, 3 + rounds * 4 + 1);
    assert.equal(claude.decisionSteps.length, rounds * 3 + 1);
    assert.equal(calls(claude).length, rounds);
    assert.equal(claude.messages.at(-2)?.issuedBy, claude.messages.length - 3);
    const codex = textOnly(largeCodex(rounds), 'rollout.jsonl');
    assert.equal(codex.format, 'codex');
    assert.equal(codex.messages.length, 3 + rounds * 4 + 1);
    assert.equal(codex.decisionSteps.length, rounds * 2 + 1);
    assert.equal(calls(codex).length, rounds);
    assert.equal((codex.metadata.tokenUsage as { input_tokens: number }).input_tokens, rounds * 900);
    const gemini = textOnly(largeGemini(rounds), 'session.jsonl');
    assert.equal(gemini.format, 'gemini-cli');
    assert.equal(gemini.messages.length, 1 + rounds * 4);
    assert.equal(gemini.decisionSteps.length, rounds);
    assert.equal(calls(gemini).length, rounds);
  });

  it('inspect --json gives the counts of each session fixture', async () => {
    const expectations: [string, TrajectoryFormat, number, number, number][] = [
      [CLAUDE, 'claude-code', 21, 9, 5],
      [CODEX, 'codex', 18, 6, 4],
      [CODEX_LEGACY, 'codex', 8, 3, 1],
      [CODEX_TS, 'codex', 4, 2, 1],
      [CODEX_EXEC, 'codex', 11, 5, 3],
      [GEMINI, 'gemini-cli', 15, 4, 2],
      [GEMINI_JSON, 'gemini-cli', 3, 2, 1],
      [GEMINI_CHECKPOINT, 'gemini-cli', 6, 3, 1],
    ];
    for (const [file, format, messages, decisions, toolCalls] of expectations) {
      const { code, out, err } = await runCli(['inspect', file, '--json']);
      assert.equal(code, 0, err);
      const parsed = JSON.parse(out) as unknown;
      // A session file is one trajectory: one report (an array of one where the container is JSONL).
      const reports = (Array.isArray(parsed) ? parsed : [parsed]) as { format: string; messages: number; decisionSteps: number[]; toolCalls: number }[];
      assert.equal(reports.length, 1, file);
      assert.deepEqual(
        [reports[0].format, reports[0].messages, reports[0].decisionSteps.length, reports[0].toolCalls],
        [format, messages, decisions, toolCalls],
        file,
      );
    }
  });
});
