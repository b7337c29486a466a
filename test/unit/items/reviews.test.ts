import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { emptySidecar, readSidecar, writeSidecar } from '../../../src/core/sidecar/sidecarFile';
import { readAnnotationFile } from '../../../src/core/scoring/agreementInputs';
import { scoreAgreement } from '../../../src/core/scoring/agreement';
import { applyReviewChanges, applyReviewPatch, hasJudgment, reviewProgress, reviewsInSidecar } from '../../../src/core/items/blindReviews';
import { EditState } from '../../../src/core/editing/itemEdits';
import { tempDir, writeTemp } from '../helpers';

const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown; // document maps have no prototype (idKeyed.ts)

const NOW = '2026-01-01T00:00:00.000Z';

describe('item view: blind-review judgments', () => {
  it('applies patches, keeps a stable key order, and removes a review when its last judgment is cleared', () => {
    let r = applyReviewPatch(undefined, 'ann', { distractor: { docId: 'd02', value: true } }, NOW);
    r = applyReviewPatch(r, 'ann', { answerability: true }, NOW);
    r = applyReviewPatch(r, 'ann', { notes: 'looks fine' }, NOW);
    r = applyReviewPatch(r, 'ann', { shortcut_free: false }, NOW);
    assert.deepEqual(Object.keys(r!), ['annotator', 'answerability', 'shortcut_free', 'distractor_validity', 'notes', 'blind', 'updatedAt']);
    assert.deepEqual(r!.distractor_validity, { d02: true });
    r = applyReviewPatch(r, 'ann', { answerability: null, shortcut_free: null }, NOW);
    assert.ok(hasJudgment(r));
    r = applyReviewPatch(r, 'ann', { distractor: { docId: 'd02', value: null } }, NOW);
    assert.equal(r, undefined, 'no judgment left: the review (and its note) goes');
    assert.equal(applyReviewPatch(undefined, 'ann', { notes: 'only a note' }, NOW), undefined);
  });

  it('reports progress over the item-level and document-level questions', () => {
    const r = applyReviewPatch(undefined, 'a', { answerability: true, shortcut_free: true, irrelevant: { docId: 'i1', value: true } }, NOW);
    assert.equal(reviewProgress(undefined, ['i1'], ['x1']), 'none');
    assert.equal(reviewProgress(r, ['i1'], ['x1']), 'partial');
    assert.equal(reviewProgress(applyReviewPatch(r, 'a', { distractor: { docId: 'x1', value: false } }, NOW), ['i1'], ['x1']), 'complete');
  });

  it('writes reviews into the sidecar beside other annotators and records, in the shape `trajaudit agreement` reads', () => {
    const dir = tempDir();
    const item = writeTemp(dir, 'item.json', '{}');
    const path = `${item}.audit.json`;
    const sidecar = emptySidecar(item, 'abc', 'delegation-item');
    sidecar.records['deleg-1'] = { annotation: { rationale: 'kept' }, reviews: [{ annotator: 'r2', answerability: false, blind: true }] } as never;
    const mine = applyReviewPatch(
      undefined,
      'r1',
      { answerability: true, shortcut_free: true, irrelevant: { docId: 'd01', value: true }, distractor: { docId: 'd02', value: false }, notes: 'n' },
      NOW,
    );
    applyReviewChanges(sidecar, [
      { itemId: 'deleg-1', annotator: 'r1', review: mine },
      { itemId: 'deleg-2', annotator: 'r1', review: applyReviewPatch(undefined, 'r1', { answerability: true }, NOW) },
    ]);
    writeSidecar(path, sidecar);
    const back = readSidecar(path)!;
    assert.equal((back.records['deleg-1'] as Record<string, unknown>).annotation !== undefined, true, 'other fields kept');
    assert.deepEqual(
      reviewsInSidecar(back, 'deleg-1').map((r) => r.annotator),
      ['r2', 'r1'],
    );

    const reviews = readAnnotationFile(path);
    assert.deepEqual(
      reviews.map((r) => [r.item, r.annotator]),
      [
        ['deleg-1', 'r2'],
        ['deleg-1', 'r1'],
        ['deleg-2', 'r1'],
      ],
    );
    assert.deepEqual(plain(reviews[1].labels), {
      answerability: true,
      shortcut_free: true,
      irrelevant_labels: { d01: true },
      distractor_validity: { d02: false },
    });
    const score = scoreAgreement(reviews);
    assert.equal(score.dimensions.answerability?.n, 2);
    assert.equal(score.dimensions.distractor_validity?.confirmed, 0);

    // Replacing keeps the position; removing the last review of a record removes the record if nothing else is in it.
    applyReviewChanges(back, [
      { itemId: 'deleg-1', annotator: 'r2', review: applyReviewPatch(undefined, 'r2', { answerability: true }, NOW) },
      { itemId: 'deleg-2', annotator: 'r1', review: undefined },
    ]);
    assert.deepEqual(
      reviewsInSidecar(back, 'deleg-1').map((r) => [r.annotator, r.answerability]),
      [
        ['r2', true],
        ['r1', true],
      ],
    );
    assert.equal(back.records['deleg-2'], undefined);
    assert.ok(readFileSync(path, 'utf8').includes('"reviews"'));
  });

  it('edit state: dirty keys, commit, backup and restore', () => {
    const s = new EditState();
    s.reset([['a', { x: 1 }]]);
    assert.equal(s.isDirty, false);
    assert.deepEqual(s.set('a', { x: 2 }), { x: 1 });
    s.set('b', 1);
    assert.deepEqual(s.changedKeys().sort(), ['a', 'b']);
    s.set('b', undefined);
    assert.deepEqual(s.changedKeys(), ['a']);
    const backup = s.backupEntries();
    const t = new EditState();
    t.reset([['a', { x: 1 }]]);
    t.restore(backup);
    assert.deepEqual(t.get('a'), { x: 2 });
    s.commit();
    assert.equal(s.isDirty, false);
  });
});
