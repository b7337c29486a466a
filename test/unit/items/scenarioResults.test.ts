import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../../src/core/input/inputError';
import { mergeResults, parseResults, withCriterion, withSilentCitations, type ResultLine } from '../../../src/core/items/scenarioResults';
import { defaultRunFolder, readRunFolder, resultsById, saveRunFolder } from '../../../src/core/items/scenarioRunFolder';
import { runCli, tempDir } from '../helpers';

const SET = join(__dirname, '..', '..', '..', 'samples', 'items', 'scenarios', 'scenario-set.json');
const SAMPLE_RESULTS = join(__dirname, '..', '..', '..', 'samples', 'runs', 'scenarios-run', 'results.jsonl');

const order = {
  scenarioOrder: ['TS-01', 'TS-02', 'TS-03'],
  criterionOrder: new Map([
    ['TS-01', ['TS01-A1', 'TS01-A5', 'TS01-B1']],
    ['TS-02', ['TS02-A4', 'TS02-A1']],
  ]),
};

describe('item view: scenario results.jsonl', () => {
  it('parses strictly, with line:column messages', () => {
    const lines = parseResults(
      '{"scenario":"TS-01","criteria":{"a":true},"deliverable":"x"}\n\n{"scenario":"TS-02","criteria":{}, "silent_citations": null}\n',
      'r.jsonl',
    );
    assert.deepEqual(
      lines.map((l) => [l.value.scenario, l.line]),
      [
        ['TS-01', 1],
        ['TS-02', 3],
      ],
    );
    assert.equal(lines[0].value.deliverable, 'x');
    assert.equal('silent_citations' in lines[1].value, false);
    const bad = (text: string, re: RegExp) =>
      assert.throws(
        () => parseResults(text, 'r.jsonl'),
        (e: unknown) => e instanceof InputError && re.test(e.message),
      );
    bad('{"scenario":"A","criteria":{"x":1}}', /r\.jsonl:1:1: .*criterion "x" must be true/);
    bad('{"scenario":"A","criteria":{}}\n{"scenario":"A","criteria":{}}', /r\.jsonl:2:1: .*appears twice/);
    bad('{"scenario":"A","criteria":{},"silent_citations":-1}', /whole number/);
    bad('{"scenario": "A", oops}', /r\.jsonl:1:\d+:/);
    assert.equal(parseResults(readFileSync(SAMPLE_RESULTS, 'utf8'), 'sample').length, 10);
  });

  it('marks and clears criteria and silent citations; an empty line disappears', () => {
    let line = withCriterion(undefined, 'TS-01', 'TS01-A5', true);
    line = withSilentCitations(line, 'TS-01', 2);
    assert.deepEqual(line, { scenario: 'TS-01', criteria: { 'TS01-A5': true }, silent_citations: 2 });
    line = withSilentCitations(withCriterion(line, 'TS-01', 'TS01-A5', null), 'TS-01', null);
    assert.equal(line, undefined);
    assert.throws(() => withSilentCitations(undefined, 'TS-01', 1.5));
  });

  it('merges criterion by criterion: untouched lines stay byte for byte, mechanical results and other fields survive', () => {
    const diskText = [
      '{"scenario": "TS-01", "criteria": {"TS01-A1": true, "TS01-B1": true}, "silent_citations": 0, "deliverable": "plan.md"}',
      '{"scenario": "TS-09", "criteria": {"x": true}}',
    ].join('\n');
    const disk = parseResults(diskText, 'd');
    const base = resultsById(disk);
    const current = new Map(base);
    current.set('TS-01', withCriterion(current.get('TS-01'), 'TS-01', 'TS01-A5', false)!);
    current.set('TS-02', withCriterion(undefined, 'TS-02', 'TS02-A4', true)!);
    // Meanwhile a mechanical checker changed TS01-A1 on disk: not ours to touch.
    const diskNow = parseResults(diskText.replace('"TS01-A1": true', '"TS01-A1": false'), 'd');
    const out = mergeResults({ disk: diskNow, base, current, ...order });
    assert.deepEqual(out.conflicts, []);
    const lines = out.text.trimEnd().split('\n');
    assert.equal(lines.length, 3);
    assert.deepEqual(JSON.parse(lines[0]), {
      scenario: 'TS-01',
      criteria: { 'TS01-A1': false, 'TS01-A5': false, 'TS01-B1': true },
      silent_citations: 0,
      deliverable: 'plan.md',
    });
    assert.deepEqual(Object.keys(JSON.parse(lines[0]).criteria), ['TS01-A1', 'TS01-A5', 'TS01-B1'], 'criteria follow the set order');
    assert.equal(lines[1], '{"scenario": "TS-09", "criteria": {"x": true}}', 'an unedited line is kept as written');
    assert.deepEqual(JSON.parse(lines[2]), { scenario: 'TS-02', criteria: { 'TS02-A4': true } });
  });

  it('reports a conflict when the same criterion changed on disk and here, and removes lines cleared here', () => {
    const disk0 = parseResults('{"scenario":"TS-01","criteria":{"TS01-A5":true}}\n{"scenario":"TS-02","criteria":{"TS02-A4":true}}', 'd');
    const base = resultsById(disk0);
    const current = new Map<string, ResultLine>(base);
    current.set('TS-01', withCriterion(base.get('TS-01'), 'TS-01', 'TS01-A5', false)!);
    current.delete('TS-02');
    const diskNow = parseResults('{"scenario":"TS-01","criteria":{"TS01-A5":true}}\n{"scenario":"TS-02","criteria":{"TS02-A4":true}}', 'd');
    assert.deepEqual(mergeResults({ disk: diskNow, base, current, ...order }).text, '{"scenario":"TS-01","criteria":{"TS01-A5":false}}\n');
    const diskOther = parseResults('{"scenario":"TS-01","criteria":{}}', 'd');
    assert.deepEqual(mergeResults({ disk: diskOther, base, current, ...order }).conflicts, ['TS-01#TS01-A5']);
  });

  it('saves into a new run folder with a manifest the scorer reads, and refuses a folder of another kind', async () => {
    const dir = tempDir();
    const setPath = join(dir, 'set.json');
    copyFileSync(SET, setPath);
    const folder = defaultRunFolder(setPath);
    const state = readRunFolder(folder, setPath);
    assert.equal(state.problem, undefined);
    assert.equal(state.resultsText, undefined);
    const current = new Map<string, ResultLine>();
    let line = withCriterion(undefined, 'TS-01', 'TS01-A5', true);
    line = withSilentCitations(line, 'TS-01', 0);
    current.set('TS-01', line!);
    const outcome = await saveRunFolder(state, setPath, { base: new Map(), current, ...order });
    assert.ok(outcome?.wroteManifest);
    assert.deepEqual(JSON.parse(readFileSync(join(folder, 'trajaudit.run.json'), 'utf8')), {
      kind: 'scenarios',
      scenarios: '../set.json',
      results: 'results.jsonl',
    });
    assert.equal(readFileSync(join(folder, 'results.jsonl'), 'utf8'), '{"scenario":"TS-01","criteria":{"TS01-A5":true},"silent_citations":0}\n');
    const { code, out, err } = await runCli(['score', folder, '--json']);
    assert.ok(code === 0 || code === 1, err); // 1: the scenario gate fails, which is a result, not an input error
    assert.match(err, /kind scenarios \(trajaudit\.run\.json/);
    const score = JSON.parse(out);
    assert.equal(score.kind, 'scenarios');
    assert.ok('TS-01' in score.scenarios);

    const other = join(dir, 'audit-run');
    mkdirSync(other);
    writeFileSync(join(other, 'trajaudit.run.json'), '{"kind":"audit"}');
    const refused = readRunFolder(other, setPath);
    assert.match(refused.problem ?? '', /is a "audit" run, not a "scenarios" run/);
    await assert.rejects(saveRunFolder(refused, setPath, { base: new Map(), current, ...order }), /not saved/);
    assert.ok(!existsSync(join(other, 'results.jsonl')));
  });

  it('reads an existing run folder through its manifest and notices when it names another set', () => {
    const runDir = join(__dirname, '..', '..', '..', 'samples', 'runs', 'scenarios-run');
    const state = readRunFolder(runDir, SET);
    assert.equal(state.problem, undefined);
    assert.equal(state.lines.length, 10);
    assert.deepEqual(state.notices, []);
    const elsewhere = readRunFolder(runDir, join(tempDir(), 'copy.json'));
    assert.match(elsewhere.notices[0], /names another scenario set/);
  });
});
