import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rawAgreement, scoreAgreement, type Review } from '../../../src/core/scoring/agreement';
import { readAnnotationFile, readAnnotationFiles } from '../../../src/core/scoring/agreementInputs';
import { runCli, tempDir } from '../helpers';

const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown; // document maps have no prototype (idKeyed.ts)

const close = (actual: number | null | undefined, expected: number, eps = 1e-12) =>
  assert.ok(actual !== null && actual !== undefined && Math.abs(actual - expected) < eps, `expected ${expected}, got ${actual}`);

const r = (item: string, annotator: string, labels: Review['labels']): Review => ({ item, annotator, labels });
// Three items, three annotators (hand-scored in the test below).
const REVIEWS: Review[] = [
  r('i1', 'a', { answerability: true, shortcut_free: true, irrelevant_labels: { x: true, y: true }, distractor_validity: { d: true } }),
  r('i1', 'b', { answerability: true, shortcut_free: true, irrelevant_labels: { x: true, y: false }, distractor_validity: { d: true } }),
  r('i1', 'c', { answerability: true, shortcut_free: false, irrelevant_labels: { x: true, y: true }, distractor_validity: { d: true } }),
  r('i2', 'a', { answerability: true, shortcut_free: true, irrelevant_labels: { x: true }, distractor_validity: { d: false } }),
  r('i2', 'b', { answerability: false, shortcut_free: true, irrelevant_labels: { x: true }, distractor_validity: { d: false } }),
  r('i2', 'c', { answerability: false, shortcut_free: true, irrelevant_labels: { x: true }, distractor_validity: { d: true } }),
  r('i3', 'a', { answerability: true, shortcut_free: true }),
  r('i3', 'b', { answerability: true, shortcut_free: false, irrelevant_labels: {} }),
  r('i3', 'c', { answerability: false }),
];

describe('human validation agreement (seed 000)', () => {
  it('raw agreement per item = Σ n_j(n_j − 1) / (n(n − 1))', () => {
    assert.equal(rawAgreement([true, true, true]), 1);
    close(rawAgreement([true, false, false]), 1 / 3);
    assert.equal(rawAgreement([true, false]), 0);
    assert.equal(rawAgreement([true]), null);
  });

  it('majority labels, document-level collapse, confirmation / residual rates with exact intervals', () => {
    const s = scoreAgreement(REVIEWS);
    assert.equal(s.items, 3);
    assert.deepEqual(s.annotators, ['a', 'b', 'c']);
    assert.equal(s.chance_corrected, false);
    const ans = s.dimensions.answerability;
    assert.ok(ans);
    assert.deepEqual([ans.n, ans.confirmed], [3, 2]); // i1 TTT, i2 TFF, i3 TTF
    close(ans.confirmation_rate, 2 / 3);
    close(ans.residual_defect_rate, 1 / 3);
    // scipy: beta.ppf(0.025, 2, 2), beta.ppf(0.975, 3, 1)
    close(ans.confirmation_ci95?.[0], 0.09429932405024609, 1e-9);
    close(ans.confirmation_ci95?.[1], 0.9915962413403874, 1e-9);
    close(ans.residual_defect_ci95?.[0], 1 - 0.9915962413403874, 1e-9);
    close(ans.residual_defect_ci95?.[1], 1 - 0.09429932405024609, 1e-9);
    close(ans.raw_agreement, (1 + 1 / 3 + 1 / 3) / 3);
    assert.deepEqual(ans.defect_items, ['i2']);
    // shortcut_free: i1 TTF → yes, i2 TTT → yes, i3 TF → tie → not confirmed.
    const sc = s.dimensions.shortcut_free;
    assert.deepEqual([sc?.n, sc?.confirmed, sc?.ties, sc?.defect_items], [3, 2, ['i3'], ['i3']]);
    close(sc?.raw_agreement, (1 / 3 + 1 + 0) / 3);
    // irrelevant_labels: per annotator "every document positive": i1 T F T → yes; i2 TTT → yes; i3 has no documents.
    const irr = s.dimensions.irrelevant_labels;
    assert.deepEqual([irr?.n, irr?.confirmed], [2, 2]);
    assert.equal(irr?.confirmation_ci95?.[1], 1);
    close(irr?.confirmation_ci95?.[0], 0.15811388300841897, 1e-9);
    close(irr?.raw_agreement, (1 / 3 + 1) / 2);
    const dv = s.dimensions.distractor_validity;
    assert.deepEqual([dv?.n, dv?.confirmed, dv?.defect_items], [2, 1, ['i2']]);
    assert.match(s.note, /not chance-corrected/);
  });

  it('empty input: no dimensions', () => {
    assert.deepEqual(scoreAgreement([]).dimensions, {});
  });

  it('reads JSONL, JSON arrays, {reviews} and sidecar-like {records: {id: {reviews}}}; rejects duplicates', () => {
    const dir = tempDir();
    const jsonl = join(dir, 'a.jsonl');
    writeFileSync(
      jsonl,
      '{"item": "i1", "annotator": "a", "answerability": true, "shortcut_leakage": true}\n{"id": "i2", "reviewer": "a", "distractor_valid": {"d1": false}}\n',
    );
    const fromJsonl = readAnnotationFile(jsonl);
    assert.deepEqual(plain(fromJsonl.map((x) => [x.item, x.annotator, x.labels])), [
      ['i1', 'a', { answerability: true, shortcut_free: false }],
      ['i2', 'a', { distractor_validity: { d1: false } }],
    ]);
    // A document id from data such as `__proto__` is an ordinary id (it vanished into the prototype).
    const proto = join(dir, 'proto.jsonl');
    writeFileSync(proto, '{"item": "i3", "annotator": "a", "irrelevant_labels": {"__proto__": true, "d2": false}}\n');
    assert.deepEqual(Object.keys(readAnnotationFile(proto)[0].labels.irrelevant_labels ?? {}), ['__proto__', 'd2']);
    const records = join(dir, 'b.json');
    writeFileSync(records, JSON.stringify({ schema: 'trajaudit.audit/v1', records: { i1: { reviews: [{ annotator: 'b', answerability: false }] } } }));
    assert.deepEqual(
      readAnnotationFile(records).map((x) => [x.item, x.annotator]),
      [['i1', 'b']],
    );
    const array = join(dir, 'c.json');
    writeFileSync(array, JSON.stringify({ reviews: [{ item: 'i1', annotator: 'c', answerability: true }] }));
    assert.equal(readAnnotationFiles([jsonl, records, array]).length, 4);
    assert.throws(() => readAnnotationFiles([jsonl, jsonl]), /annotator "a" reviews item "i1" twice/);
    const bad = join(dir, 'd.jsonl');
    writeFileSync(bad, '{"item": "i1", "annotator": "a", "answerability": true}\n{"item": "i2", "annotator": "a", "answerability": "yes"}\n');
    assert.throws(() => readAnnotationFile(bad), /d\.jsonl:2:\d+: at \$\.answerability: expected boolean/);
    writeFileSync(bad, '{"item": "i1", "annotator": "a"}\n');
    assert.throws(() => readAnnotationFile(bad), /d\.jsonl:1:1: review has no judgment/);
    writeFileSync(bad, '{\n  "reviews": [\n    {"item": "i1",, }\n  ]\n}');
    assert.throws(() => readAnnotationFile(bad), /d\.jsonl:3:\d+: invalid JSON/);
  });

  it('trajaudit agreement --json on the documented example file', async () => {
    const file = join(__dirname, '../../fixtures/scoring/agreement-example.jsonl');
    const out = await runCli(['agreement', file, '--json']);
    assert.equal(out.code, 0, out.err);
    const doc = JSON.parse(out.out);
    assert.deepEqual(Object.keys(doc), ['kind', 'items', 'annotators', 'chance_corrected', 'note', 'dimensions']);
    assert.equal(doc.dimensions.answerability.n, 2);
    const text = await runCli(['agreement', file]);
    assert.match(text.out, /not chance-corrected/);
    const usage = await runCli(['agreement']);
    assert.equal(usage.code, 2);
  });
});
