// The product's one seeded generator (src/core/random.ts). Its sequences are pinned: bootstrap
// intervals in scores and the documents' order, public ids and withheld set in Delegation runs
// are made from them, so a changed sequence would make existing run folders irreproducible.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chooseWithheld, initialContext, itemPool, orderPool, settingOneIds } from '../../src/core/harness/delegation/docs';
import { delegationItemSchema } from '../../src/core/items/schemas';
import { hash32, mulberry32, seededRandom, shuffled } from '../../src/core/random';
import { BOOTSTRAP_SEED, bootstrapMeanInterval } from '../../src/core/scoring/stats';

const ITEMS = join(__dirname, '../../samples/items/delegation');
const take = (random: () => number, n: number) => Array.from({ length: n }, random);

describe('seeded randomness', () => {
  it('mulberry32: the bootstrap seed and the benchmark seed give the sequences they always gave', () => {
    assert.deepEqual(take(mulberry32(BOOTSTRAP_SEED), 4), [0.2559139896184206, 0.5929048631805927, 0.8053383126389235, 0.9675766411237419]);
    assert.deepEqual(take(mulberry32(42), 3), [0.6011037519201636, 0.44829055899754167, 0.8524657934904099]);
  });

  it('mulberry32 equals the reference form (signed additions, as in the browser fixtures)', () => {
    const reference = (seed: number) => {
      let a = seed | 0;
      return () => {
        a = (a + 0x6d2b79f5) | 0;
        let t = Math.imul(a ^ (a >>> 15), 1 | a);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      };
    };
    for (const seed of [0, 1, 42, BOOTSTRAP_SEED, 0xffffffff, -7]) assert.deepEqual(take(mulberry32(seed), 50), take(reference(seed), 50), `seed ${seed}`);
  });

  it('keyed streams: FNV-1a of the parts seeds mulberry32; each purpose has its own stream', () => {
    assert.equal(hash32(''), 2166136261);
    assert.equal(hash32('deleg-en-0231-oil-fund-equity-gap'), 3274743675);
    assert.deepEqual(take(seededRandom(0, 'deleg-en-0231-oil-fund-equity-gap', 'public-ids'), 3), [0.4293110554572195, 0.4362654606811702, 0.7647287661675364]);
    assert.deepEqual(take(seededRandom(0, 'x', 'a'), 5), take(mulberry32(hash32('0\u0000x\u0000a')), 5));
    assert.notDeepEqual(take(seededRandom(0, 'x', 'a'), 5), take(seededRandom(0, 'x', 'b'), 5));
    assert.deepEqual(shuffled([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], seededRandom(0, 'deleg-zh-0158-olympic-events', 'rest-order')), [5, 6, 7, 8, 3, 9, 2, 1, 0, 4]);
  });

  it('the bootstrap interval of a fixed sample is unchanged', () => {
    assert.deepEqual(bootstrapMeanInterval([0.1, -0.2, 0.5, 0.3, 0, 0.25]), [-0.025000000000000005, 0.3333333333333333]);
  });

  it('Delegation harness (seed 0): public ids, document order, withheld and initial documents of the sample items are unchanged', () => {
    const expected: Record<string, { ids: string[]; order: string[]; withheld: string[]; initial: string[] }> = {
      'deleg-en-0231-oil-fund-equity-gap': {
        ids: ['d04', 'd09', 'd07', 'd02', 'd05', 'd03', 'd01', 'd08'],
        order: ['d08', 'd02', 'd04', 'd03', 'd07', 'd01', 'd05', 'd09'],
        withheld: ['d03'],
        initial: ['d09', 'd05', 'd01', 'd07', 'd02', 'd04', 'd08'],
      },
      'deleg-zh-0158-olympic-events': {
        ids: ['d04', 'd06', 'd05', 'd01', 'd03', 'd07', 'd02'],
        order: ['d05', 'd03', 'd02', 'd06', 'd07', 'd04', 'd01'],
        withheld: ['d06'],
        initial: ['d01', 'd04', 'd03', 'd07', 'd02', 'd05'],
      },
    };
    for (const [name, want] of Object.entries(expected)) {
      const item = delegationItemSchema.parse(JSON.parse(readFileSync(join(ITEMS, `${name}.json`), 'utf8')));
      const pool = itemPool(item);
      const { ids } = settingOneIds(item, pool, 'rename', 0);
      // web1, web2, … in the order of `want.ids`.
      assert.deepEqual(
        [...ids].sort((a, b) => Number(a[1].slice(3)) - Number(b[1].slice(3))).map(([original]) => original),
        want.ids,
        `${name}: public ids`,
      );
      assert.deepEqual(
        orderPool(item, pool, 'golden_middle', 0).map((d) => d.original),
        want.order,
        `${name}: order`,
      );
      const withheld = chooseWithheld(item, 1, 0);
      assert.deepEqual(withheld, want.withheld, `${name}: withheld`);
      assert.deepEqual(
        initialContext(item, pool, withheld, 0).map((d) => d.original),
        want.initial,
        `${name}: initial context`,
      );
    }
  });
});
