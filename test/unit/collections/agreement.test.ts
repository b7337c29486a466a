// Agreement over a collection: κ against hand computations, the degenerate cases, and
// `trajaudit agreement <folder>` over test/fixtures/collections/agreement (values by hand).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cohenKappa, collectionAgreement, fleissKappa, type RatedCase } from '../../../src/core/collections/agreement';
import { runCli } from '../helpers';

const FOLDER = join(__dirname, '../../fixtures/collections/agreement');
const ONE = `${join(FOLDER, 'one.traj.json')}#0`;
const TWO = `${join(FOLDER, 'two.traj.json')}#0`;

describe('collections: agreement and κ (trajaudit agreement on trajectories)', function () {
  it("Cohen's κ: p_o = 3/4, p_e = 1/2·1/4 + 1/2·3/4 = 1/2, κ = 1/2", function () {
    assert.deepEqual(cohenKappa(['x', 'x', 'y', 'y'], ['x', 'y', 'y', 'y']), { kappa: 0.5 });
  });

  it("Fleiss' κ: P̄ = (1 + 1/3 + 1 + 1/3)/4 = 2/3, p_e = 1/2, κ = 1/3", function () {
    const result = fleissKappa([
      ['x', 'x', 'x'],
      ['x', 'x', 'y'],
      ['y', 'y', 'y'],
      ['x', 'y', 'y'],
    ]);
    assert.ok(result.kappa !== null && Math.abs(result.kappa - 1 / 3) < 1e-12, String(result.kappa));
  });

  it('perfect agreement over two classes is 1; one class only is undefined, reported as null with the reason', function () {
    assert.deepEqual(cohenKappa(['x', 'y', 'y'], ['x', 'y', 'y']), { kappa: 1 });
    assert.deepEqual(
      fleissKappa([
        ['x', 'x', 'x'],
        ['y', 'y', 'y'],
      ]),
      { kappa: 1 },
    );
    const one = cohenKappa(['x', 'x'], ['x', 'x']);
    assert.equal(one.kappa, null);
    assert.match(one.reason ?? '', /single class/);
    assert.equal(fleissKappa([['x', 'x', 'x']]).kappa, null);
    assert.deepEqual(cohenKappa([], []), { kappa: null, reason: 'no case rated by both raters' });
  });

  it('one rater: no pairs and no Fleiss κ', function () {
    const cases: RatedCase[] = [{ id: 'a#0', labels: { gold: { criticalStep: 2, rootCause: 'constraint_neglect' } } }];
    assert.deepEqual(collectionAgreement(cases), { cases: 1, raters: ['gold'], pairs: [], fleiss: null });
  });

  it('agreement <folder> --json: raters from the sidecar annotation, the gold and the newest audit per method; hand-computed values', async function () {
    const result = await runCli(['agreement', FOLDER, '--json']);
    assert.equal(result.code, 0, result.err);
    const report = JSON.parse(result.out);
    assert.deepEqual(report.raters, ['audit:heuristic', 'gold', 'human:ann-1']);
    assert.equal(report.cases, 2);
    assert.deepEqual(report.unreadable, []);
    const [auditGold, auditHuman, goldHuman] = report.pairs;
    // one: audit 4 (the newer of its two heuristic audits) cn, gold 2 [2,4] cn, human 4 [4,4] cn;
    // two: audit 3 scg, gold 1 [1,1] scg, human 1 (no span) ua.
    assert.deepEqual(auditGold.cases[0], {
      case: ONE,
      a: { critical_step: 4, root_cause: 'constraint_neglect' },
      b: { critical_step: 2, root_cause: 'constraint_neglect' },
      same_step: false,
      within_span: true,
      same_root_cause: true,
    });
    assert.equal(auditGold.cases[1].case, TWO);
    assert.deepEqual(auditGold.critical_step, { n: 2, same: 0, within_span: 0.5, within_span_n: 2 });
    assert.deepEqual(auditGold.root_cause, {
      n: 2,
      agreement: 1,
      confusion: { constraint_neglect: { constraint_neglect: 1 }, search_coverage_gap: { search_coverage_gap: 1 } },
      cohen_kappa: 1,
    });
    // audit vs human: p_o = 1/2, p_e = 1/2·1/2 = 1/4, κ = (1/2 − 1/4)/(3/4) = 1/3; only case one has a span.
    assert.deepEqual(auditHuman.critical_step, { n: 2, same: 0.5, within_span: 1, within_span_n: 1 });
    assert.ok(Math.abs(auditHuman.root_cause.cohen_kappa - 1 / 3) < 1e-12);
    assert.deepEqual(auditHuman.root_cause.confusion, { constraint_neglect: { constraint_neglect: 1 }, search_coverage_gap: { unsupported_answer: 1 } });
    // gold 2 [2,4] vs human 4 [4,4]: 4 is in [2,4] but 2 is not in [4,4], so not within each other's span.
    assert.equal(goldHuman.cases[0].within_span, false);
    assert.deepEqual(goldHuman.critical_step, { n: 2, same: 0.5, within_span: 0.5, within_span_n: 2 });
    // Fleiss over both cases: P̄ = (1 + 1/3)/2 = 2/3; p(cn) = 3/6, p(scg) = 2/6, p(ua) = 1/6, p_e = 14/36; κ = 5/11.
    assert.equal(report.fleiss.n, 2);
    assert.ok(Math.abs(report.fleiss.kappa - 5 / 11) < 1e-12, String(report.fleiss.kappa));
  });

  it('the text report, usage errors (exit 2) and an unreadable path (exit 1, listed)', async function () {
    const text = await runCli(['agreement', FOLDER]);
    assert.equal(text.code, 0);
    assert.match(text.out, /Fleiss' κ \(3 raters, 2 case\(s\) rated by all\): 0\.455/);
    assert.equal((await runCli(['agreement', FOLDER, '--out', join(FOLDER, 'report.md')])).code, 2);
    assert.equal((await runCli(['agreement', FOLDER, '--by', 'model'])).code, 2);
    const missing = await runCli(['agreement', FOLDER, join(FOLDER, 'absent.traj.json'), '--json']);
    assert.equal(missing.code, 1);
    assert.deepEqual(JSON.parse(missing.out).unreadable, [{ file: join(FOLDER, 'absent.traj.json'), message: 'cannot be read (ENOENT)' }]);
    assert.equal(missing.err, `${join(FOLDER, 'absent.traj.json')}: cannot be read (ENOENT)`);
  });
});
