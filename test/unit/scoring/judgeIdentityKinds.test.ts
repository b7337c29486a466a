// Judge identity for every run kind with a model judge (issue 17 item 5): re-scoring with a second
// judge model asks it for every verdict (none of the first judge's is reused), the first judge then
// reuses its own, and the result and the report model carry the two judges' agreement table. The
// nuggets kind against the mock, with hand-computed κ, is in judgeIdentity.test.ts.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { StructuredModel, StructuredRequest } from '../../../src/core/scoring/judges/llm';
import { buildReportModel } from '../../../src/core/scoring/report/reportModel';
import { scoreRunFolder, type ScoreOptions } from '../../../src/core/scoring/scoreRunFolder';
import { runCli, tempDir } from '../helpers';

const SAMPLES = resolve(__dirname, '..', '..', '..', 'samples', 'runs');
const RESUME_FIXTURES = resolve(__dirname, '..', '..', 'fixtures', 'resume');

/**
 * A judge model that answers every judge prompt validly. Its verdicts depend on the model name and
 * on the prompt's hash, so two judges agree on some units and not on others.
 */
class ScriptedJudge implements StructuredModel {
  calls = 0;
  readonly identity: { provider: string; model: string };
  constructor(model: string) {
    this.identity = { provider: 'test', model };
  }

  private flip(user: string, unit: number): boolean {
    return createHash('sha256').update(`${this.identity.model}\u0000${unit}\u0000${user}`).digest()[0] % 2 === 0;
  }

  complete<T>(request: StructuredRequest<T>): Promise<{ value: T }> {
    this.calls++;
    const count = (heading: string) => Number(new RegExp(`${heading} \\((\\d+)\\)`).exec(request.user)?.[1] ?? 1);
    let value: unknown;
    switch (request.schemaName) {
      case 'NuggetCoverage':
        value = {
          coverage: Array.from({ length: count('Golden nuggets') }, (_, i) => ({ nugget: i + 1, label: this.flip(request.user, i) ? 'full' : 'none' })),
        };
        break;
      case 'RubricGrades':
        value = { grades: Array.from({ length: count('Rubrics') }, (_, i) => ({ rubric: i + 1, pass: this.flip(request.user, i) })) };
        break;
      case 'AnswerCorrectness': {
        const correct = this.flip(request.user, 0);
        value = { AnswerCorrectness: { Explanation: 'scripted', CorrectnessDetails: { answer: correct }, ExcessiveAnswers: [] } };
        break;
      }
      case 'CriterionVerdict':
        value = { hit: this.flip(request.user, 0) };
        break;
      default:
        throw new Error(`no scripted reply for ${request.schemaName}`);
    }
    return Promise.resolve({ value: value as T });
  }
}

/** Rewrites each JSON line of a file. */
function mapLines(file: string, map: (line: Record<string, unknown>) => Record<string, unknown>): void {
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  writeFileSync(file, lines.map((l) => `${JSON.stringify(map(JSON.parse(l) as Record<string, unknown>))}\n`).join(''));
}

/** A sample run folder copied out of the repository (its manifest's paths made absolute), without cached verdicts. */
function copyOfSample(name: string, edit?: (dir: string) => void): string {
  const dir = join(tempDir(), name);
  cpSync(join(SAMPLES, name), dir, { recursive: true });
  rmSync(join(dir, 'judgments.jsonl'), { force: true });
  const manifestFile = join(dir, 'trajaudit.run.json');
  try {
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, unknown>;
    for (const [key, value] of Object.entries(manifest))
      if (typeof value === 'string' && value.startsWith('..') && !isAbsolute(value)) manifest[key] = resolve(SAMPLES, name, value);
    writeFileSync(manifestFile, JSON.stringify(manifest));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  edit?.(dir);
  return dir;
}

async function resumeRun(): Promise<string> {
  const out = join(tempDir('trajaudit-resume-'), 'run');
  const template = `node ${join(RESUME_FIXTURES, 'scripted-agent.mjs')} {resume_file} {out_answer} {out_trajectory} {id}`;
  const r = await runCli(['resume', RESUME_FIXTURES, '--command', template, '--out', out]);
  assert.equal(r.code, 0, r.err);
  return out;
}

const KINDS: { kind: string; folder: () => string | Promise<string>; options?: ScoreOptions }[] = [
  {
    kind: 'audit',
    // Without the grades the predictions carry, every sound diagnosis's repair goes to the rubric grader.
    folder: () => copyOfSample('audit-gold-pred', (dir) => mapLines(join(dir, 'predictions.jsonl'), ({ repair_grades: _grades, ...rest }) => rest)),
  },
  { kind: 'deepsearchqa', folder: () => copyOfSample('deepsearchqa-run'), options: { judge: 'llm' } },
  { kind: 'delegation', folder: () => copyOfSample('delegation-run'), options: { judge: 'llm' } },
  {
    kind: 'scenarios',
    // Mechanical criteria a results line leaves out are judged by the scenario-criterion judge.
    folder: () =>
      copyOfSample('scenarios-run', (dir) =>
        mapLines(join(dir, 'results.jsonl'), (line) => ({
          ...line,
          criteria: {},
          deliverable: `The deliverable of ${String(line.scenario)}: a plain summary.`,
        })),
      ),
  },
  { kind: 'resume', folder: resumeRun, options: { judge: 'llm' } },
];

describe('judge identity in every kind with a model judge: a second judge judges every item, and the report compares the two', function () {
  this.timeout(60_000);
  for (const { kind, folder, options = {} } of KINDS) {
    it(kind, async () => {
      const dir = await folder();
      const a = new ScriptedJudge('judge-a');
      const first = await scoreRunFolder(dir, { ...options, model: a });
      assert.equal(first.score.kind, kind);
      const verdicts = first.judging.modelCalls;
      assert.ok(verdicts > 0, 'the run needs model verdicts');
      assert.equal(a.calls, verdicts);
      assert.equal(first.judgeAgreement, undefined, 'one judge: no agreement table');

      const b = new ScriptedJudge('judge-b');
      const second = await scoreRunFolder(dir, { ...options, model: b });
      assert.equal(second.judging.cached, first.judging.cached, "none of the first judge's verdicts served to the second");
      assert.equal(b.calls, verdicts, 'the second judge is asked for every verdict');

      const again = new ScriptedJudge('judge-a');
      const third = await scoreRunFolder(dir, { ...options, model: again });
      assert.equal(again.calls, 0, 'the first judge reuses its own verdicts');
      assert.deepEqual(third.score, first.score, "the first judge's score, from its own verdicts");

      const rows = third.judgeAgreement ?? [];
      assert.equal(rows.length, 1);
      assert.deepEqual([rows[0].judge_a, rows[0].judge_b], [`test:judge-a:${promptOf(kind)}`, `test:judge-b:${promptOf(kind)}`]);
      assert.ok(rows[0].n >= verdicts, `every verdict compared (n = ${rows[0].n})`);
      assert.ok(rows[0].agreement > 0 && rows[0].agreement < 1, `the scripted judges agree on some units only (${rows[0].agreement})`);
      const section = buildReportModel(third, { folderLabel: kind, judgeMode: { model: true, text: 'judged' }, createdAt: 'now' }).model.sections.find(
        (s) => s.id === 'judge-agreement',
      );
      assert.ok(section, 'the report has the judge agreement section');
      assert.equal(section.tables[0].rows[0][0].text, `test:judge-a:${promptOf(kind)}`);
      assert.equal(section.tables[0].rows[0][2].text, String(rows[0].n));
    });
  }
});

function promptOf(kind: string): string {
  if (kind === 'audit') return 'repair-rubric/v1';
  if (kind === 'scenarios') return 'scenario-criterion/v1';
  return 'deepsearchqa-grader/v1';
}
