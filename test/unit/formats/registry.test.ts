// The format registry as a whole: every fixture under test/fixtures/formats/<id>/ (the folder
// names the format) and every sample trajectory is detected as its format, clear of the
// runner-up; broken input gets one line naming what was seen; the two loading paths the
// registry adds (a value split into records, JSONL lines read as sessions) keep ids and lines.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { explainUndetected } from '../../../src/core/formats/detect';
import { isObject } from '../../../src/core/formats/fields';
import { openAiChatReader } from '../../../src/core/formats/openaiChat';
import {
  AMBIGUITY_MARGIN,
  decide,
  rankFormats,
  rankLineFormats,
  TRAJECTORY_READERS,
  type RankedMatch,
  type TrajectoryReader,
} from '../../../src/core/formats/registry';
import { InputError } from '../../../src/core/input/inputError';
import { nonBlankLines } from '../../../src/core/input/jsonText';
import { loadFile, loadText } from '../../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../../src/core/load/loadRecord';
import { TRAJECTORY_FORMATS, type TrajectoryFormat } from '../../../src/core/model/trajectory';
import { runCli, tempDir, writeTemp } from '../helpers';

const repo = join(__dirname, '..', '..', '..');
const FIXTURES = join(repo, 'test', 'fixtures', 'formats');
const SAMPLES = join(repo, 'samples', 'trajectories');
/** Sample folders whose name is not the format id. */
const SAMPLE_FOLDER_FORMAT: Record<string, TrajectoryFormat> = { tongyi: 'tongyi-react' };
/** A fixture meant to be refused lives in `<id>/broken/`: it must fail with a message naming its format. */
const BROKEN = 'broken';
const EPSILON = 1e-9;
/** Code that builds a fixture (an .eval zip's generator) and notes sit beside fixtures; they are not inputs. */
const NOT_INPUT = /\.(ts|js|mjs|md)$/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : entry.isFile() && !NOT_INPUT.test(entry.name) ? [path] : [];
  });
}

function fixtureFolders(): string[] {
  try {
    return readdirSync(FIXTURES, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

function sampleTrajectoryFiles(): { file: string; format: TrajectoryFormat }[] {
  return readdirSync(SAMPLES, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((folder) =>
      filesUnder(join(SAMPLES, folder.name))
        // Samples sit beside their sidecars, gold nuggets and a licence; those are not trajectories.
        .filter((file) => /\.jsonl?$/.test(file) && !file.endsWith('.audit.json') && !file.endsWith('.gold_nuggets.jsonl'))
        .map((file) => ({ file, format: SAMPLE_FOLDER_FORMAT[folder.name] ?? (folder.name as TrajectoryFormat) })),
    );
}

function isZip(bytes: Buffer): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

function describeRanking(ranking: RankedMatch[]): string {
  return ranking.map((m) => `${m.reader.id} ${m.score.toFixed(2)} (${m.reason})`).join('; ') || '(no reader saw anything of its format)';
}

/** The winner of a ranking is `expected` and beats the runner-up (any reader that saw something) by the margin. */
function assertClearWinner(ranking: RankedMatch[], expected: TrajectoryFormat, what: string): void {
  const verdict = decide(ranking);
  assert.equal(verdict.kind, 'reader', `${what}: no clear reader; ranking: ${describeRanking(ranking)}`);
  const [best, second] = ranking;
  assert.equal(best.reader.id, expected, `${what}: read as ${best.reader.id}, expected ${expected}; ranking: ${describeRanking(ranking)}`);
  if (second) {
    assert.ok(
      best.score - second.score >= AMBIGUITY_MARGIN - EPSILON,
      `${what}: ${expected} ${best.score} is not clear of ${second.reader.id} ${second.score} by ${AMBIGUITY_MARGIN}; ranking: ${describeRanking(ranking)}`,
    );
  }
}

/** Detection as loadFile does it: the whole value (or all JSONL lines as a session), else each record. */
function assertDetectedAs(file: string, expected: TrajectoryFormat): void {
  const bytes = readFileSync(file);
  const name = relative(repo, file);
  if (isZip(bytes)) return; // an archive has no JSON value to rank; loadFile's detection is checked below
  const text = bytes.toString('utf8');
  let value: unknown;
  let parsed = true;
  try {
    value = JSON.parse(text);
  } catch {
    parsed = false;
  }
  if (parsed) {
    const ranking = rankFormats(value);
    if (decide(ranking).kind === 'reader' || !Array.isArray(value)) return assertClearWinner(ranking, expected, name);
    value.forEach((element, index) => assertClearWinner(rankFormats(element), expected, `${name} $[${index}]`));
    return;
  }
  const lines = [...nonBlankLines(text)].map(({ line, lineNumber }) => ({ value: JSON.parse(line) as unknown, lineNumber }));
  const sessionRanking = rankLineFormats(lines.map((l) => l.value));
  if (sessionRanking.length > 0 && sessionRanking[0].score >= 0.5) return assertClearWinner(sessionRanking, expected, `${name} (lines as a session)`);
  for (const { value: line, lineNumber } of lines) assertClearWinner(rankFormats(line), expected, `${name}:${lineNumber}`);
}

function assertLoadsAs(file: string, expected: TrajectoryFormat): void {
  const loaded = loadFile(file, { displayName: relative(repo, file) });
  assert.equal(loaded.detection.kind, expected, `${relative(repo, file)}: loadFile detected ${loaded.detection.kind} (${loaded.detection.reason})`);
  assert.deepEqual(loaded.problems, [], `${relative(repo, file)}: problems while loading`);
  assert.ok(loaded.records.length > 0, `${relative(repo, file)}: no records`);
  for (const record of loaded.records) {
    assert.ok(isTrajectoryRecord(record), `${relative(repo, file)} record ${record.id} is a ${record.kind}`);
    assert.equal(record.trajectory.format, expected, `${relative(repo, file)} record ${record.id}`);
  }
}

describe('format registry: every fixture is detected as its format, clear of the runner-up', () => {
  const folders = fixtureFolders();

  it('every fixture folder is named by a format id and holds fixtures', () => {
    for (const folder of folders) {
      assert.ok(
        (TRAJECTORY_FORMATS as readonly string[]).includes(folder),
        `test/fixtures/formats/${folder}: not a format id (${TRAJECTORY_FORMATS.join(', ')})`,
      );
      const files = filesUnder(join(FIXTURES, folder)).filter((f) => !relative(join(FIXTURES, folder), f).startsWith(`${BROKEN}/`));
      assert.ok(files.length > 0, `test/fixtures/formats/${folder} holds no fixture`);
    }
  });

  for (const folder of folders) {
    const format = folder as TrajectoryFormat;
    const files = filesUnder(join(FIXTURES, folder));
    for (const file of files) {
      const name = relative(FIXTURES, file);
      if (relative(join(FIXTURES, folder), file).startsWith(`${BROKEN}/`)) {
        it(`${name} is refused with a message naming ${format}`, () => {
          assert.throws(
            () => loadFile(file, { displayName: name }),
            (error: unknown) => error instanceof InputError && error.message.includes(format) && !error.message.includes('\n'),
          );
        });
        continue;
      }
      it(`${name} is ${format}`, () => {
        assertDetectedAs(file, format);
        assertLoadsAs(file, format);
      });
    }
  }

  for (const { file, format } of sampleTrajectoryFiles()) {
    it(`samples/${relative(SAMPLES, file)} is ${format}`, () => {
      assertDetectedAs(file, format);
      assertLoadsAs(file, format);
    });
  }
});

/** Registers test-only readers for one test (they are removed again, whatever happens). */
function withReaders(readers: TrajectoryReader[], body: () => void | Promise<void>): () => Promise<void> {
  return async () => {
    const list = TRAJECTORY_READERS as TrajectoryReader[];
    list.unshift(...readers);
    try {
      await body();
    } finally {
      list.splice(0, readers.length);
    }
  };
}

const testFormat = (id: string) => id as TrajectoryFormat;

/** Fits any object with `marker`, at `score`; loads `value.messages` as OpenAI chat. */
function markerReader(id: string, marker: string, score: number): TrajectoryReader {
  return {
    id: testFormat(id),
    label: `test reader ${id}`,
    detect: (value) => (isObject(value) && marker in value ? { score, reason: `an object with \`${marker}\`` } : undefined),
    load: (value, source, recordId) => ({ ...openAiChatReader.load(value, source, recordId), format: testFormat(id) }),
  };
}

describe('format registry: what an unread value is told', () => {
  it('unrecognized input names the keys seen and the formats, in one line, and writes nothing', async () => {
    const dir = tempDir();
    const text = JSON.stringify({ run: 7, steps_taken: [{ what: 'x' }], verdict: 'ok' });
    const file = writeTemp(dir, 'mystery.json', text);
    assert.throws(
      () => loadFile(file, { displayName: 'mystery.json' }),
      (error: unknown) =>
        error instanceof InputError &&
        /^mystery\.json:1:1: at \$: unrecognized content \(an object with keys run, steps_taken, verdict\)/.test(error.message) &&
        error.message.includes('openai-chat') &&
        error.message.includes('--format'),
    );
    const cli = await runCli(['inspect', file]);
    assert.notEqual(cli.code, 0);
    assert.match(cli.err, /unrecognized content \(an object with keys run, steps_taken, verdict\)/);
    assert.doesNotMatch(cli.err, /\n\s+at /, 'no stack trace');
    assert.deepEqual(readdirSync(dir), ['mystery.json'], 'nothing written beside the file');
    assert.equal(readFileSync(file, 'utf8'), text);
  });

  it('an array of non-objects says what it holds', () => {
    assert.match(explainUndetected([1, 2, 3]), /an array of 3 numbers/);
    assert.match(explainUndetected([]), /an empty array/);
  });

  it('a value near one format names it and what it lacks', () => {
    // Chat messages whose roles are agent names: openai-chat sees its shape but not its roles.
    const message = explainUndetected([{ role: 'Orchestrator', content: 'plan' }, { role: 'zzz-unknown-role' }]);
    assert.match(message, /looks like .*`(openai-chat|magentic-one)`/);
    assert.match(message, /lacks /);
  });

  it(
    'an ambiguous value names both formats and refuses to guess',
    withReaders([markerReader('test-a', 'both_marker', 0.7), markerReader('test-b', 'both_marker', 0.68)], () => {
      const value = { both_marker: true, messages: [{ role: 'user', content: 'q' }] };
      const verdict = decide(rankFormats(value));
      assert.equal(verdict.kind, 'ambiguous');
      const text = JSON.stringify(value);
      assert.throws(
        () => loadText(text, 'tie.json'),
        (error: unknown) =>
          error instanceof InputError &&
          error.message.includes('`test-a`') &&
          error.message.includes('`test-b`') &&
          error.message.includes('--format test-a') &&
          !error.message.includes('\n'),
      );
      // The user's choice settles it.
      const chosen = loadText(text, 'tie.json', { format: testFormat('test-b') });
      assert.equal(chosen.detection.kind, 'test-b');
      assert.match(chosen.detection.reason, /--format test-b/);
    }),
  );
});

describe('format registry: a value split into records, and JSONL sessions', () => {
  const splitReader: TrajectoryReader = {
    ...markerReader('test-split', 'test_runs', 0.9),
    split: (value) =>
      ((value as { test_runs: { run_id: string }[] }).test_runs ?? []).map((run, index) => ({ id: run.run_id, value: run, path: ['test_runs', index] })),
  };
  const chat = (question: string) => [
    { role: 'user', content: question },
    { role: 'assistant', content: `answer to ${question}` },
  ];

  it(
    'a reader with split makes one JSON value many records, ids from split, errors placed at the record',
    withReaders([splitReader], () => {
      const text = JSON.stringify(
        {
          test_runs: [
            { run_id: 'r1', messages: chat('one') },
            { run_id: 'r2', messages: [{ role: 'narrator' }] },
            { run_id: 'r3', messages: chat('three') },
          ],
        },
        null,
        1,
      );
      const loaded = loadText(text, 'runs.json');
      assert.equal(loaded.container, 'json-split');
      assert.equal(loaded.detection.kind, 'test-split');
      assert.deepEqual(
        loaded.records.map((r) => r.id),
        ['r1', 'r3'],
      );
      const [first] = loaded.records;
      assert.ok(isTrajectoryRecord(first));
      assert.equal(first.trajectory.messages.length, 2);
      assert.equal(loaded.problems.length, 1);
      assert.equal(loaded.problems[0].path, '$.test_runs[1].messages[0].role');
      assert.ok(loaded.problems[0].line !== undefined && loaded.problems[0].line > 1, 'the problem has its line');
    }),
  );

  const sessionReader: TrajectoryReader = {
    id: testFormat('test-session'),
    label: 'test session log',
    detect: () => undefined,
    load: () => {
      throw new Error('a session is read from its lines');
    },
    detectLines: (values) => (values.every((v) => isObject(v) && typeof v.session === 'string') ? { score: 0.9, reason: 'lines with `session`' } : undefined),
    loadLines: (values, lineNumbers, source) => {
      const bySession = new Map<string, { value: Record<string, unknown>; line: number }[]>();
      values.forEach((value, index) => {
        const v = value as Record<string, unknown>;
        const lines = bySession.get(v.session as string) ?? [];
        lines.push({ value: v, line: lineNumbers[index] });
        bySession.set(v.session as string, lines);
      });
      return [...bySession].map(([id, lines]) => ({
        id,
        line: lines[0].line,
        trajectory: {
          ...openAiChatReader.load(
            lines.map((l) => ({ role: l.value.role, content: l.value.text })),
            source,
            id,
          ),
          format: testFormat('test-session'),
        },
      }));
    },
  };

  it(
    'JSONL lines that together make sessions are read by the session reader first',
    withReaders([sessionReader], () => {
      const lines = [
        { session: 's1', role: 'user', text: 'q1' },
        { session: 's2', role: 'user', text: 'q2' },
        { session: 's1', role: 'assistant', text: 'a1' },
      ];
      const text = lines.map((l) => JSON.stringify(l)).join('\n') + '\n{"session": "s2", "role": \n';
      const loaded = loadText(text, 'log.jsonl');
      assert.equal(loaded.container, 'jsonl-session');
      assert.equal(loaded.detection.kind, 'test-session');
      assert.deepEqual(
        loaded.records.map((r) => [r.id, r.line]),
        [
          ['s1', 1],
          ['s2', 2],
        ],
      );
      const [s1] = loaded.records;
      assert.ok(isTrajectoryRecord(s1));
      assert.deepEqual(
        s1.trajectory.messages.map((m) => m.role),
        ['user', 'assistant'],
      );
      assert.equal(loaded.problems.length, 1, 'the broken last line is a problem, the rest still loads');
      assert.equal(loaded.problems[0].line, 4);
    }),
  );

  it(
    'JSONL lines that are no session fall back to one record per line',
    withReaders([sessionReader], () => {
      const text = [JSON.stringify({ id: 'x', messages: chat('x') }), JSON.stringify({ id: 'y', messages: chat('y') })].join('\n');
      const loaded = loadText(text, 'records.jsonl');
      assert.equal(loaded.container, 'jsonl');
      assert.equal(loaded.detection.kind, 'openai-chat');
      assert.deepEqual(
        loaded.records.map((r) => [r.id, r.line]),
        [
          ['x', 1],
          ['y', 2],
        ],
      );
    }),
  );

  it('a file whose records are all unreadable is refused with the first one placed, never with a stack', () => {
    const dir = tempDir();
    const file = writeTemp(dir, 'bad.jsonl', '{"foo": 1}\n{"bar": 2}\n');
    assert.throws(
      () => loadFile(file, { displayName: 'bad.jsonl' }),
      (error: unknown) => error instanceof InputError && /^bad\.jsonl:1:1: unrecognized content \(an object with keys foo\)/.test(error.message),
    );
    const stat = statSync(file);
    assert.equal(stat.size, 22, 'the file is unchanged');
    assert.deepEqual(readdirSync(dir), ['bad.jsonl']);
  });
});
