// Golden nuggets (seed 004, Prompt D): the evidence ids of an archived run's search and visit
// results, the validation of a reply (repaired or rejected with why), and `trajaudit build nuggets`
// against the mock: every evidence id of the output resolves in the trace, and `score` scores a run
// against the built nuggets.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { evidencePool, normalizeEvidenceId } from '../../../src/core/builders/nuggets/evidence';
import { validateNuggets } from '../../../src/core/builders/nuggets/extract';
import { loadFile } from '../../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../../src/core/load/loadRecord';
import type { Trajectory } from '../../../src/core/model/trajectory';
import { startMockModelServer, type MockModelServer, type MockReply, type MockRequest } from '../../mock/mockModelServer';
import { runCli, tempDir } from '../helpers';

const INTENT_RUN = resolve(__dirname, '..', '..', '..', 'samples', 'trajectories', 'openai-chat', 'cts-0021.intent-run.traj.json');

function trajectoryOf(path: string): Trajectory {
  const record = loadFile(path).records[0];
  assert.ok(isTrajectoryRecord(record));
  return record.trajectory;
}

const readLines = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, any>);

describe('golden nuggets: evidence ids', () => {
  it('m<p> per search/visit return, m<p>.r<k> per result of a JSON result list', () => {
    const pool = evidencePool(trajectoryOf(INTENT_RUN));
    assert.deepEqual(
      pool.map((e) => [e.id, e.kind, e.position]),
      [
        ['m3', 'search', 3],
        ['m3.r1', 'search', 3],
        ['m3.r2', 'search', 3],
        ['m3.r3', 'search', 3],
        ['m5', 'visit', 5],
      ],
    );
    assert.match(pool[2].text, /学生票/);
    assert.equal(normalizeEvidenceId(' [M3.R2] '), 'm3.r2');
  });

  it('validation repairs what a rule can and rejects the rest with why', () => {
    const ids = new Set(['m3', 'm3.r1', 'm5']);
    const checked = validateNuggets(
      {
        nuggets: [
          { text: ' 旺季成人票  60元 ', weight: 3, evidence_ids: ['[M3.R1]', 'm3.r1', 'm9'] },
          { text: '学生票20元', weight: '2', evidence_ids: ['m3'] },
          { text: '须提前预约', weight: 5, evidence_ids: ['m5'] },
          { text: '周一闭馆', weight: 1.5, evidence_ids: ['m5'] },
          { text: '现场不售票', weight: 2, evidence_ids: ['m7'] },
          { text: '旺季成人票 60元', weight: 1, evidence_ids: ['m3'] },
          { text: '  ', weight: 1, evidence_ids: ['m3'] },
        ],
        required_subquestions: [],
        missing_evidence: [],
        unsupported_claims: [],
      },
      ids,
    );
    assert.deepEqual(checked.nuggets, [
      { text: '旺季成人票 60元', weight: 3, evidence_ids: ['m3.r1'] },
      { text: '学生票20元', weight: 2, evidence_ids: ['m3'] },
    ]);
    assert.deepEqual(checked.repairs, [
      'nugget 1: dropped evidence id "m9", which is no search or visit result of the trace',
      'nugget 2: weight "2" read as 2',
    ]);
    assert.deepEqual(
      checked.rejected.map((r) => r.reason),
      [
        'nugget 3: weight 5 is not an integer 1, 2 or 3',
        'nugget 4: weight 1.5 is not an integer 1, 2 or 3',
        'nugget 5: no supporting evidence id resolves in the trace',
        'nugget 6: the same text as an earlier nugget',
        'nugget 7: empty text',
      ],
    );
  });
});

describe('trajaudit build nuggets (against the mock)', function () {
  this.timeout(60_000);
  let server: MockModelServer;
  beforeEach(async () => {
    server = await startMockModelServer();
  });
  afterEach(async () => {
    await server.close();
  });

  /** Prompt D's reply for the intent run (one bad id, one weight as text, one nugget with no valid id); Prompt E's coverage. */
  const script =
    (seen: string[]) =>
    (r: MockRequest): MockReply => {
      const text = `${r.system}\n${r.userText}`;
      if (text.includes('static golden reference')) {
        seen.push(r.userText);
        return {
          text: JSON.stringify({
            nuggets: [
              { text: '2024年旺季（4月1日至10月31日）故宫成人门票为每人60元', weight: 3, evidence_ids: ['m3.r1', 'M5', 'm12'] },
              { text: '全日制学生凭有效证件购买学生票，每人20元', weight: '2', evidence_ids: ['[m3.r2]'] },
              { text: '故宫实行实名制预约售票，须提前预约，现场不售票', weight: 2, evidence_ids: ['m5'] },
              { text: '旺季一般不用预约', weight: 1, evidence_ids: ['s9'] },
            ],
            required_subquestions: ['旺季的成人票价是多少？', '学生票价是多少？', '是否需要预约？'],
            missing_evidence: [],
            unsupported_claims: ['周一闭馆适用于所有节假日'],
          }),
        };
      }
      if (text.includes('Golden nuggets')) {
        const count = Number(/Golden nuggets \((\d+)\)/.exec(text)?.[1] ?? 0);
        const answer = /<answer>([\s\S]*?)<\/answer>/.exec(text)?.[1] ?? '';
        // Full for every nugget whose price or rule the answer states, none otherwise.
        const labels = ['60元', '20元', '预约'].slice(0, count).map((needle) => (answer.includes(needle) ? 'full' : 'none'));
        return { text: JSON.stringify({ coverage: labels.map((label, i) => ({ nugget: i + 1, label, reason: 'mock' })) }) };
      }
      return { text: '{}' };
    };

  it('writes nuggets whose evidence ids all resolve in the trace; score scores a run against them', async () => {
    const seen: string[] = [];
    server.script(script(seen));
    const dir = tempDir();
    const gold = join(dir, 'run', 'gold_nuggets.jsonl');
    const built = await runCli(['build', 'nuggets', INTENT_RUN, '--out', gold, '--model', 'extractor', '--base-url', server.openaiBaseUrl, '--json']);
    assert.equal(built.code, 0, built.err);
    assert.deepEqual(JSON.parse(built.out).nuggets, 3);
    assert.match(seen[0], /\[m3\.r2\] \(search result of search, message 3\)\n\{"title":"学生票及优惠政策/, 'the prompt shows each result under its id');
    assert.match(built.err, /cts-0021: 3 nugget\(s\); repaired: nugget 1: dropped evidence id "m12".*; rejected: nugget 4: no supporting evidence id resolves/);

    const [line] = readLines(gold);
    assert.equal(line.id, 'cts-0021');
    assert.equal(line.fused_query, trajectoryOf(INTENT_RUN).query);
    const pool = new Set(evidencePool(trajectoryOf(INTENT_RUN)).map((e) => e.id));
    for (const n of line.nuggets) {
      assert.ok([1, 2, 3].includes(n.weight), JSON.stringify(n));
      assert.ok(n.evidence_ids.length > 0);
      for (const id of n.evidence_ids) assert.ok(pool.has(id), `${id} resolves`);
    }
    assert.deepEqual(
      line.nuggets.map((n: { weight: number; evidence_ids: string[] }) => [n.weight, n.evidence_ids]),
      [
        [3, ['m3.r1', 'm5']],
        [2, ['m3.r2']],
        [2, ['m5']],
      ],
    );
    assert.deepEqual(line.unsupported_claims, ['周一闭馆适用于所有节假日']);
    assert.equal(line.required_subquestions.length, 3);
    assert.deepEqual([line.provenance.prompt, line.provenance.model, line.provenance.record], ['nuggets/v1/extract', 'openai:extractor', '0']);

    // A nuggets run against the built gold: the intent answer states all three, the orig one only the price.
    writeFileSync(
      join(dir, 'run', 'answers.jsonl'),
      [
        { id: 'cts-0021', condition: 'orig', answer: '故宫门票60元左右。' },
        { id: 'cts-0021', condition: 'intent', answer: trajectoryOf(INTENT_RUN).predictedAnswer },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n') + '\n',
    );
    const scored = await runCli(['score', join(dir, 'run'), '--json', '--model', 'judge', '--base-url', server.openaiBaseUrl]);
    assert.equal(scored.code, 0, scored.err);
    const score = JSON.parse(scored.out) as { conditions: Record<string, { n: number; mean: number }> };
    // restore_score_100 = 100 · Σ w·v / Σ w with weights 3, 2, 2: intent 7/7, orig 3/7.
    assert.equal(score.conditions.intent.mean, 100);
    assert.ok(Math.abs(score.conditions.orig.mean - (100 * 3) / 7) < 1e-9, String(score.conditions.orig.mean));
  });

  it('a reply with no valid nugget is asked again with the reasons, then the trajectory is left out (exit 1)', async () => {
    const seen: string[] = [];
    server.script((r) => {
      seen.push(r.userText);
      return { text: JSON.stringify({ nuggets: [{ text: '门票60元', weight: 3, evidence_ids: ['S1#2'] }] }) };
    });
    const out = join(tempDir(), 'gold_nuggets.jsonl');
    const r = await runCli(['build', 'nuggets', INTENT_RUN, '--out', out, '--model', 'extractor', '--base-url', server.openaiBaseUrl]);
    assert.equal(r.code, 1);
    assert.equal(seen.length, 2);
    assert.match(seen[1], /Your previous reply had no valid nugget: nugget 1: no supporting evidence id resolves in the trace/);
    assert.match(r.err, /left out .*cts-0021\.intent-run\.traj\.json#0: no valid nugget after 2 model call\(s\)/);
    assert.equal(readFileSync(out, 'utf8'), '', 'the output holds only valid lines (none here)');
  });

  it('usage errors: no files, no --out, an unknown --format', async () => {
    assert.equal((await runCli(['build', 'nuggets', '--out', 'x.jsonl'])).code, 2);
    assert.match((await runCli(['build', 'nuggets', INTENT_RUN])).err, /--out FILE is required/);
    const format = await runCli(['build', 'nuggets', INTENT_RUN, '--out', join(tempDir(), 'g.jsonl'), '--format', 'open-ai', '--model', 'm']);
    assert.equal(format.code, 2);
    assert.match(format.err, /--format "open-ai" is not a trajectory format; the formats are /);
  });
});
