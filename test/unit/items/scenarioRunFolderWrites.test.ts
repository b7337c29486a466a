// The scenario run folder the editor saves into: "results" in its manifest must name a file inside
// the folder (issue 20, finding 2: a relative path leading out was written).
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withCriterion, type ResultLine } from '../../../src/core/items/scenarioResults';
import { readRunFolder, saveRunFolder } from '../../../src/core/items/scenarioRunFolder';
import { tempDir } from '../helpers';

const SET = join(__dirname, '..', '..', '..', 'samples', 'items', 'scenarios', 'scenario-set.json');
const order = { scenarioOrder: ['TS-01'], criterionOrder: new Map([['TS-01', ['TS01-A5']]]) };

describe('scenario run folder: results are written only inside it', () => {
  it('a manifest whose "results" leads outside is refused with the key, and saving writes nothing', async () => {
    const dir = tempDir();
    const setPath = join(dir, 'set.json');
    copyFileSync(SET, setPath);
    const folder = join(dir, 'a', 'run');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'trajaudit.run.json'), JSON.stringify({ kind: 'scenarios', scenarios: '../../set.json', results: '../../escaped.jsonl' }));
    const state = readRunFolder(folder, setPath);
    assert.match(state.problem ?? '', /trajaudit\.run\.json: at \$\.results: \.\.\/\.\.\/escaped\.jsonl is outside the run folder/);
    const current = new Map<string, ResultLine>([['TS-01', withCriterion(undefined, 'TS-01', 'TS01-A5', true)!]]);
    await assert.rejects(saveRunFolder(state, setPath, { base: new Map(), current, ...order }), /not saved/);
    assert.ok(!existsSync(join(dir, 'escaped.jsonl')));
  });
});
