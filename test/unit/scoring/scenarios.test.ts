import assert from 'node:assert/strict';
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScenarioSet } from '../../../src/core/items/schemas';
import { loadScenarioSet } from '../../../src/core/scoring/runs/scenariosRun';
import { scoreRunFolderSync } from '../../../src/core/scoring/scoreRunFolder';
import { scoreScenarios, type ScenarioResult } from '../../../src/core/scoring/scenarios';
import { runCli, tempDir } from '../helpers';

const close = (actual: number | null | undefined, expected: number) =>
  assert.ok(actual !== null && actual !== undefined && Math.abs(actual - expected) < 1e-9, `expected ${expected}, got ${actual}`);

const crit = (id: string, track: 'A' | 'B', dim: string, points: number | 'veto', check: 'mechanical' | 'human' = 'mechanical') => ({
  id,
  track,
  dim,
  text: id,
  check,
  points,
});
const SET: ScenarioSet = {
  meta: {},
  scenarios: [
    {
      id: 'S1',
      criteria: [
        crit('a1', 'A', 'D1', 20),
        crit('a2', 'A', 'D1', 30, 'human'),
        crit('a3', 'A', 'D2', 50),
        crit('v1', 'B', 'E4', 'veto'),
        crit('b1', 'B', 'E1', 10),
        crit('b2', 'B', 'E2', 30),
      ],
    },
    { id: 'S2', criteria: [crit('c1', 'A', 'D2', 40), crit('c2', 'A', 'D3', 60), crit('v2', 'B', 'E4', 'veto')] },
    { id: 'S3', criteria: [crit('d1', 'A', 'D3', 10)] },
  ],
} as ScenarioSet;

const results = (entries: [string, ScenarioResult][]) => new Map(entries);

describe('scenario-set scoring (seed 003)', () => {
  const base = results([
    ['S1', { criteria: { a1: true, a2: false, a3: true, v1: false, b1: true, b2: true } }], // the veto fails
    ['S2', { criteria: { c1: true, c2: true, v2: true } }], // only a veto on track B
    ['S3', { criteria: { d1: true }, silent_citations: 2 }],
  ]);

  it('A, B (veto fails → 0, only a veto → 100), dimensions, a_total with default equal weights, a_mean', () => {
    const s = scoreScenarios(SET, base);
    assert.deepEqual(s.scenarios.S1, { a: 70, b: 0, veto_failed: true });
    assert.deepEqual(s.scenarios.S2, { a: 100, b: 100, veto_failed: false });
    assert.deepEqual(s.scenarios.S3, { a: 100, b: null, veto_failed: false });
    // D1: 20 of 50; D2: 50 + 40 of 90; D3: 60 + 10 of 70.
    assert.deepEqual(s.dimensions, { D1: 40, D2: 100, D3: 100 });
    close(s.a_total, (40 + 100 + 100) / 3);
    assert.equal(s.weights.source, 'default-equal');
    assert.match(s.weights.note, /equal weights \(1\/3\) over the 3 dimensions present \(D1, D2, D3\)/);
    close(s.a_mean, 90);
  });

  it('the gate lists each failed condition (a_mean ≥ 90 passes at exactly 90)', () => {
    const s = scoreScenarios(SET, base);
    assert.equal(s.gate.passed, false);
    assert.deepEqual(s.gate.reasons, ['S1: B 0 < 85 (E4 veto failed)', 'silent_citations total 2 ≠ 0']);
    const low = scoreScenarios(SET, results([...base].map(([k, v]) => (k === 'S3' ? [k, { criteria: { d1: false } }] : [k, v]))));
    assert.deepEqual(low.gate.reasons, ['a_mean 56.67 < 90', 'S1: B 0 < 85 (E4 veto failed)']);
    const pass = scoreScenarios(
      SET,
      results([
        ['S1', { criteria: { a1: true, a2: true, a3: true, v1: true, b1: true, b2: true } }],
        ['S2', base.get('S2') as ScenarioResult],
        ['S3', { criteria: { d1: true } }],
      ]),
    );
    assert.deepEqual(pass.gate, { passed: true, reasons: [] });
  });

  it('weights from a file; evidence weights scale track-B points; missing results and scenarios', () => {
    const w = scoreScenarios(SET, base, { dimensions: { D1: 0.5, D2: 0.25, D3: 0.25 } });
    close(w.a_total, 20 + 25 + 25);
    assert.equal(w.weights.source, 'file');
    const partial = results([['S1', { criteria: { a1: true, v1: true, b1: true, b2: false } }]]);
    const plain = scoreScenarios(SET, partial);
    close(plain.scenarios.S1.b, 25); // 10 of 40
    close(scoreScenarios(SET, partial, { evidence: { E1: 3 } }).scenarios.S1.b, 50); // 30 of 60
    assert.deepEqual(plain.missing, { S1: ['a2', 'a3'] });
    assert.deepEqual(plain.unscored, ['S2', 'S3']);
    assert.ok(plain.gate.reasons.includes('S2: no results line'));
    assert.ok(plain.gate.reasons.includes('S3: no results line'));
  });

  it('no results at all: nothing to average, the gate says why', () => {
    const s = scoreScenarios(SET, new Map());
    assert.equal(s.a_mean, null);
    assert.equal(s.a_total, null);
    assert.deepEqual(s.dimensions, {});
    assert.equal(s.gate.reasons[0], 'a_mean unavailable: no scenario has track-A results');
  });
});

describe('the real seed-003 scenario set', () => {
  const candidates = [
    join(__dirname, '../../../samples/items/scenarios/scenario-set.json'),
    join(__dirname, '../../../../shared/seeds/003_cb549fe58794d1b7.txt'),
  ];
  const path = candidates.find((p) => existsSync(p));

  it('loads, scores with a results file, and the gate reports each failed condition', async function () {
    if (!path) this.skip();
    const set = loadScenarioSet(path as string);
    assert.equal(set.scenarios.length, 10);
    assert.equal(
      set.scenarios.reduce((s, x) => s + x.criteria.length, 0),
      76,
    );
    const dir = tempDir();
    copyFileSync(path as string, join(dir, 'scenario-set.json'));
    // Every criterion hit, except TS-02's only scored B criterion and TS-10's E4 veto; one silent citation.
    const lines = set.scenarios.map((s) => ({
      scenario: s.id,
      criteria: Object.fromEntries(s.criteria.map((c) => [c.id, !(c.id === 'TS02-B2' || c.id === 'TS10-B1')])),
      ...(s.id === 'TS-05' ? { silent_citations: 1 } : {}),
    }));
    writeFileSync(join(dir, 'results.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n'));
    const r = scoreRunFolderSync(dir);
    assert.equal(r.detection.reason, 'no manifest; found results.jsonl and the scenario set scenario-set.json');
    if (r.score.kind !== 'scenarios') throw new Error('kind');
    const s = r.score;
    assert.equal(s.a_mean, 100);
    assert.equal(s.a_total, 100);
    assert.deepEqual(Object.keys(s.dimensions), ['D1', 'D2', 'D3', 'D4', 'D5', 'D6', 'D7', 'D8']);
    assert.deepEqual(s.scenarios['TS-10'], { a: 100, b: 0, veto_failed: true });
    assert.deepEqual(s.scenarios['TS-02'], { a: 100, b: 0, veto_failed: false });
    assert.deepEqual(s.scenarios['TS-01'], { a: 100, b: 100, veto_failed: false }); // only a veto on track B
    assert.deepEqual(s.gate.reasons, ['TS-02: B 0 < 85', 'TS-10: B 0 < 85 (E4 veto failed)', 'silent_citations total 1 ≠ 0']);
    // The CLI prints exactly the docs/cli.md keys and exits 1 because the gate failed.
    const cli = await runCli(['score', dir, '--json']);
    assert.equal(cli.code, 1);
    assert.deepEqual(Object.keys(JSON.parse(cli.out)), ['kind', 'scenarios', 'dimensions', 'a_total', 'a_mean', 'gate', 'mechanical']);
    assert.match(cli.err, /gate failed: TS-02: B 0 < 85; TS-10: B 0 < 85 \(E4 veto failed\); silent_citations total 1 ≠ 0/);
    assert.match(cli.err, /equal weights \(1\/8\)/);
  });

  it('rejects unknown scenarios and criteria in results.jsonl with line numbers', function () {
    if (!path) this.skip();
    const dir = tempDir();
    copyFileSync(path as string, join(dir, 'scenario-set.json'));
    writeFileSync(join(dir, 'results.jsonl'), '{"scenario": "TS-01", "criteria": {"TS01-A1": true}}\n{"scenario": "TS-99", "criteria": {}}\n');
    assert.throws(() => scoreRunFolderSync(dir), /results\.jsonl:2:1: scenario "TS-99" is not in the scenario set/);
    writeFileSync(join(dir, 'results.jsonl'), '{"scenario": "TS-01", "criteria": {"TS01-A9": true}}\n');
    assert.throws(() => scoreRunFolderSync(dir), /results\.jsonl:1:1: criterion "TS01-A9" is not a criterion of TS-01/);
    writeFileSync(join(dir, 'results.jsonl'), '{"scenario": "TS-01", "criteria": {"TS01-A1": "yes"}}\n');
    assert.throws(() => scoreRunFolderSync(dir), /results\.jsonl:1:47: at \$\.criteria\["TS01-A1"\]: expected boolean, got the string "yes"/);
  });
});
