import assert from 'node:assert/strict';
import { exactJudgment, goldItems, normalizeAnswer, splitList } from '../../../src/core/scoring/judges/exact';
import { exactDelegationCorrect, goldenParts } from '../../../src/core/scoring/judges/delegationAnswer';

describe('exact DeepSearchQA judge', () => {
  it('normalizes: NFKC, case-fold, punctuation, articles, whitespace, numbers as numbers', () => {
    assert.equal(normalizeAnswer('  The  Eiffel-Tower! '), 'eiffel tower');
    assert.equal(normalizeAnswer('ＡＢＣ　an apple'), 'abc apple'); // full-width letters and space (NFKC)
    assert.equal(normalizeAnswer('3,422 °C'), '3422 c');
    assert.equal(normalizeAnswer('15.20%'), '15.2');
    assert.equal(normalizeAnswer('1,2,3'), '1 2 3');
    assert.equal(normalizeAnswer('COVID-19'), 'covid 19');
    assert.equal(normalizeAnswer('北京市'), '北 京 市');
  });

  it('splits Set Answer gold on commas, semicolons, newlines and a final and/or', () => {
    assert.deepEqual(splitList('Brazil, Germany, Italy and Uruguay'), ['Brazil', 'Germany', 'Italy', 'Uruguay']);
    assert.deepEqual(splitList('a; b\nc, or d'), ['a', 'b', 'c', 'd']);
    assert.deepEqual(splitList('1,000, 2,500 and 3'), ['1,000', '2,500', '3']);
    assert.deepEqual(goldItems('Mercury and Venus', 'Set Answer'), ['Mercury', 'Venus']);
    assert.deepEqual(goldItems('Bosnia and Herzegovina', 'Single Answer'), ['Bosnia and Herzegovina']);
  });

  it('finds gold items in a list-shaped response and lists the excessive ones', () => {
    const j = exactJudgment({ problem: 'q', answer: 'Brazil, Germany, Italy', answerType: 'Set Answer', response: 'Brazil; germany, ITALY and Spain.' });
    assert.deepEqual(j.CorrectnessDetails, { Brazil: true, Germany: true, Italy: true });
    assert.deepEqual(j.ExcessiveAnswers, ['Spain']);
  });

  it('Single Answer with an extraneous candidate: found, with the other candidate excessive', () => {
    const j = exactJudgment({ problem: 'capital of Australia', answer: 'Canberra', answerType: 'Single Answer', response: 'Canberra or Sydney' });
    assert.deepEqual(j.CorrectnessDetails, { Canberra: true });
    assert.deepEqual(j.ExcessiveAnswers, ['Sydney']);
  });

  it('compares numbers as numbers and reads prose by containment only', () => {
    const n = exactJudgment({ problem: 'q', answer: '3422', answerType: 'Single Answer', response: '3,422.0' });
    assert.deepEqual(n.CorrectnessDetails, { '3422': true });
    const prose = exactJudgment({
      problem: 'q',
      answer: 'Tungsten',
      answerType: 'Single Answer',
      response: 'Tungsten has the highest melting point of any metal, about 3,422 °C. Carbon sublimes higher but is not a metal.',
    });
    assert.deepEqual(prose.CorrectnessDetails, { Tungsten: true });
    assert.deepEqual(prose.ExcessiveAnswers, []);
    const miss = exactJudgment({ problem: 'q', answer: 'Paris', answerType: 'Single Answer', response: 'Lyon' });
    assert.deepEqual(miss.CorrectnessDetails, { Paris: false });
    assert.deepEqual(miss.ExcessiveAnswers, ['Lyon']);
    // Whole words only: "Ital" is not found in "Italy".
    assert.deepEqual(exactJudgment({ problem: 'q', answer: 'Ital', answerType: 'Single Answer', response: 'Italy is long' }).CorrectnessDetails, {
      Ital: false,
    });
  });

  it('delegation answers: golden answer without remarks must appear; arrays need every part', () => {
    assert.deepEqual(goldenParts('15.2 percentage points (equities 21.3% vs fixed income 6.1%)'), ['15.2 percentage points']);
    assert.equal(
      exactDelegationCorrect({ query: 'q', goldenAnswer: '15.2 percentage points (x)', answer: 'Equities beat bonds by about 15.20 percentage points [d03].' }),
      true,
    );
    assert.equal(exactDelegationCorrect({ query: 'q', goldenAnswer: '15.2 percentage points', answer: 'roughly 17 percentage points' }), false);
    assert.equal(exactDelegationCorrect({ query: 'q', goldenAnswer: ['Oslo', 'Bergen'], answer: 'Oslo only' }), false);
    assert.equal(exactDelegationCorrect({ query: 'q', goldenAnswer: '', answer: 'x' }), false);
  });
});
