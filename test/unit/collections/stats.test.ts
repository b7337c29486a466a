// `trajaudit stats`: corpus statistics of test/fixtures/collections/corpus, every number computed
// by hand from the fixture files (tokens excepted: they come from the one tokenizer, countTokens).
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { collectTrajectories } from '../../../src/core/collections/collect';
import { corpusStats, distribution } from '../../../src/core/collections/corpusStats';
import { countTokens } from '../../../src/core/stats/statistics';
import { runCli, tempDir, writeTemp } from '../helpers';

const CORPUS = join(__dirname, '../../fixtures/collections/corpus');
const ALPHA = join(CORPUS, 'alpha.traj.json');
const BETA = join(CORPUS, 'nested/beta.traj.json');
const GAMMA = join(CORPUS, 'gamma.traj.json');
const BROKEN = join(CORPUS, 'broken.traj.json');

function snapshot(folder: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files[path] = readFileSync(path, 'utf8');
    }
  };
  walk(folder);
  return files;
}

describe('collections: corpus statistics (trajaudit stats)', function () {
  it('interpolates percentiles linearly between order statistics, as numpy does', function () {
    assert.deepEqual(distribution([1, 2, 3, 4]), { mean: 2.5, p50: 2.5, p90: 3.7, max: 4 });
    assert.deepEqual(distribution([7, 2, 4]), { mean: 13 / 3, p50: 4, p90: 6.4, max: 7 });
    assert.deepEqual(distribution([]), { mean: null, p50: null, p90: null, max: null });
    // A typed array (what the stats pass builds) reads the same; the input is not reordered.
    const values = [9, 1, 5, 5, 0, 12];
    assert.deepEqual(distribution(Float64Array.from(values)), distribution(values));
    assert.deepEqual(distribution(values), { mean: 32 / 6, p50: 5, p90: 10.5, max: 12 });
    assert.deepEqual(values, [9, 1, 5, 5, 0, 12]);
  });

  it('reads every trajectory under a folder, recursively, and lists the unreadable file', function () {
    const { trajectories, unreadable } = collectTrajectories([CORPUS]);
    // The sidecar, the run manifest and notes.md are not trajectories.
    assert.deepEqual(
      trajectories.map((t) => t.file),
      [ALPHA, GAMMA, BETA],
    );
    assert.equal(unreadable.length, 1);
    assert.equal(unreadable[0].file, BROKEN);
    assert.match(unreadable[0].message, /^2:1: invalid JSON/);
    assert.equal(trajectories[2].sidecarRecord?.annotation?.annotator, 'ann-1');
  });

  it('stats --json: the keys of docs/cli.md with hand-computed values; exit 1 for the unreadable file; nothing written', async function () {
    const before = snapshot(CORPUS);
    const result = await runCli(['stats', CORPUS, '--json']);
    assert.equal(result.code, 1);
    assert.deepEqual(snapshot(CORPUS), before);
    assert.equal(result.err, `${BROKEN}: 2:1: invalid JSON: expected ']' (is the file truncated?)`);
    const stats = JSON.parse(result.out);
    assert.deepEqual(Object.keys(stats), [
      'trajectories',
      'unreadable',
      'by_format',
      'messages',
      'decision_steps',
      'tool_calls',
      'atomic_ops',
      'tokens',
      'annotated',
      'root_causes',
      'critical_position',
      'span_length',
    ]);
    assert.equal(stats.trajectories, 3);
    assert.deepEqual(stats.by_format, { searchauditbench: 3 });
    // messages: alpha 7, beta 4, gamma 2 → sorted [2, 4, 7]; p90 at h = 2·0.9 = 1.8: 4 + 0.8·3.
    assert.deepEqual(stats.messages, { mean: 13 / 3, p50: 4, p90: 6.4, max: 7 });
    // decision steps (assistant messages): 3, 2, 1.
    assert.deepEqual(stats.decision_steps, { mean: 2, p50: 2, p90: 2.8, max: 3 });
    // tool calls: 2, 1, 0; atomic ops: alpha's search of two queries is 2, its visit 1 → 3, 1, 0.
    assert.deepEqual(stats.tool_calls, { mean: 1, p50: 1, p90: 1.8, max: 2 });
    assert.deepEqual(stats.atomic_ops, { mean: 4 / 3, p50: 1, p90: 2.6, max: 3 });
    const tokens = collectTrajectories([ALPHA, BETA, GAMMA]).trajectories.map((t) => countTokens(t.trajectory).total);
    assert.deepEqual(stats.tokens, distribution(tokens));
    // alpha: gold in the file, critical 4 of final index 6, span [2, 4]; beta: the sidecar's
    // annotation, critical 3 of final index 3, span [1, 3]; gamma: not annotated.
    assert.equal(stats.annotated, 2);
    assert.deepEqual(stats.root_causes, { constraint_neglect: 1, unsupported_answer: 1 });
    assert.deepEqual(stats.critical_position, { mean: (4 / 6 + 1) / 2, p50: (4 / 6 + 1) / 2, final_third: 1 });
    assert.deepEqual(stats.span_length, { mean: 3, p50: 3, p90: 3, max: 3 });
    assert.deepEqual(stats.unreadable, [{ file: BROKEN, message: "2:1: invalid JSON: expected ']' (is the file truncated?)" }]);
  });

  it('--by model and --by dataset: the same object per value under groups', async function () {
    const byModel = JSON.parse((await runCli(['stats', ALPHA, BETA, GAMMA, '--json', '--by', 'model'])).out);
    assert.deepEqual(Object.keys(byModel.groups), ['model-one', 'model-two']);
    assert.equal(byModel.groups['model-one'].trajectories, 2);
    assert.deepEqual(byModel.groups['model-one'].messages, { mean: 4.5, p50: 4.5, p90: 6.5, max: 7 });
    assert.equal(byModel.groups['model-one'].annotated, 1);
    assert.deepEqual(byModel.groups['model-one'].critical_position, { mean: 4 / 6, p50: 4 / 6, final_third: 1 });
    assert.equal(byModel.groups['model-two'].trajectories, 1);
    assert.deepEqual(byModel.groups['model-two'].root_causes, { unsupported_answer: 1 });
    const byDataset = corpusStats(collectTrajectories([ALPHA, BETA, GAMMA]).trajectories, [], { by: 'dataset' });
    assert.deepEqual(Object.keys(byDataset.groups ?? {}), ['set-a', 'set-b']);
    assert.equal(byDataset.groups?.['set-b'].annotated, undefined, 'no annotation keys for a group without annotations');
    assert.deepEqual(byDataset.groups?.['set-b'].decision_steps, { mean: 1, p50: 1, p90: 1, max: 1 });
  });

  it('a critical position just below 2/3 is not in the final third', function () {
    const [alpha] = collectTrajectories([ALPHA]).trajectories;
    const earlier = { ...alpha, sidecarRecord: { annotation: { criticalStep: 3, toleranceSpan: [3, 3] as [number, number] } } };
    const stats = corpusStats([earlier], []);
    assert.deepEqual(stats.critical_position, { mean: 0.5, p50: 0.5, final_third: 0 });
    assert.deepEqual(stats.root_causes, {});
    assert.equal(stats.span_length?.max, 1);
  });

  it('run-folder files are not trajectories; a bad sidecar is listed and its trajectory still counted, without its annotation', function () {
    const dir = tempDir();
    const copy = writeTemp(dir, 'alpha.traj.json', readFileSync(ALPHA));
    writeTemp(dir, 'gold.jsonl', '{"id": "0", "critical_step": 4, "tolerance_span": [2, 4]}\n{"id": "1", "critical_step": 1}\n');
    writeTemp(dir, 'beta.traj.json', readFileSync(BETA));
    writeTemp(dir, 'beta.traj.json.audit.json', '{"schema": "trajaudit.audit/v2", "records": ');
    const { trajectories, unreadable } = collectTrajectories([dir]);
    assert.deepEqual(
      trajectories.map((t) => t.file),
      [copy, join(dir, 'beta.traj.json')],
    );
    assert.equal(trajectories[1].sidecarRecord, undefined);
    assert.equal(unreadable.length, 1);
    assert.equal(unreadable[0].file, join(dir, 'beta.traj.json.audit.json'));
    assert.match(unreadable[0].message, /^1:\d+: /);
    assert.equal(corpusStats(trajectories, unreadable).annotated, 1);
  });

  it('bad usage exits 2 with one line; a missing path and a non-trajectory file are listed, not thrown', async function () {
    const wrongBy = await runCli(['stats', CORPUS, '--by', 'colour']);
    assert.equal(wrongBy.code, 2);
    assert.match(wrongBy.err, /^trajaudit stats: --by "colour" is not a grouping; expected one of model, dataset, format/);
    assert.equal((await runCli(['stats'])).code, 2);
    assert.equal((await runCli(['stats', CORPUS, '--record', 'x'])).code, 2);
    const missing = await runCli(['stats', join(CORPUS, 'absent.json'), GAMMA, '--json']);
    assert.equal(missing.code, 1);
    const report = JSON.parse(missing.out);
    assert.equal(report.trajectories, 1);
    assert.deepEqual(report.unreadable, [{ file: join(CORPUS, 'absent.json'), message: 'cannot be read (ENOENT)' }]);
    const manifest = await runCli(['stats', join(CORPUS, 'trajaudit.run.json'), '--json']);
    assert.equal(manifest.code, 1);
    assert.match(JSON.parse(manifest.out).unreadable[0].message, /^is not a trajectory file \(detected run-manifest\)$/);
  });
});
