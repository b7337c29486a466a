// `trajaudit stats` through the collection index: the same output cold and warm, the index in the
// cache folder (never beside the data), an edited sidecar seen on the next run.
import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { collectTrajectories } from '../../../src/core/collections/collect';
import { corpusStats } from '../../../src/core/collections/corpusStats';
import { defaultCacheDir } from '../../../src/cli/commands/collection';
import { runCli, tempDir } from '../helpers';

const CORPUS = join(__dirname, '../../fixtures/collections/corpus');

describe('collections: stats from the collection index', function () {
  for (const extra of [[], ['--by', 'model']]) {
    it(
      `stats --json ${extra.join(' ')}: identical output and stderr with a cold and a warm index, as computed without one`.replace(/ +/g, ' '),
      async function () {
        const cache = tempDir();
        const cold = await runCli(['stats', CORPUS, '--json', '--cache', cache, ...extra]);
        assert.ok(existsSync(join(cache, 'collections')), 'the index is written into --cache');
        const warm = await runCli(['stats', CORPUS, '--json', '--cache', cache, ...extra]);
        assert.deepEqual(warm, cold);
        const { trajectories, unreadable } = collectTrajectories([CORPUS]);
        const direct = corpusStats(trajectories, unreadable, extra.length ? { by: 'model' } : {});
        assert.deepEqual(JSON.parse(warm.out), JSON.parse(JSON.stringify(direct)));
        assert.equal(cold.code, 1, 'the broken fixture is still listed from the index');
        assert.match(warm.err, /broken\.traj\.json: 2:1: invalid JSON/);
      },
    );
  }

  it('a sidecar edited after the index was built is read on the next run', async function () {
    const data = tempDir();
    cpSync(CORPUS, data, { recursive: true });
    const cache = tempDir();
    const before = JSON.parse((await runCli(['stats', data, '--json', '--cache', cache])).out);
    assert.deepEqual(before.root_causes, { constraint_neglect: 1, unsupported_answer: 1 });
    const sidecar = join(data, 'nested/beta.traj.json.audit.json');
    writeFileSync(sidecar, readFileSync(sidecar, 'utf8').replace('"unsupported_answer"', '"search_coverage_gap"'));
    const later = new Date(Date.now() + 5000);
    utimesSync(sidecar, later, later);
    const after = JSON.parse((await runCli(['stats', data, '--json', '--cache', cache])).out);
    assert.deepEqual(after.root_causes, { constraint_neglect: 1, search_coverage_gap: 1 });
    assert.deepEqual(readdirSync(data).sort(), readdirSync(CORPUS).sort(), 'nothing written beside the data');
  });

  it('the default cache folder: $XDG_CACHE_HOME/trajaudit, else the platform cache folder', function () {
    assert.equal(defaultCacheDir({ XDG_CACHE_HOME: '/x/cache' }, 'linux', '/home/u'), '/x/cache/trajaudit');
    assert.equal(defaultCacheDir({}, 'linux', '/home/u'), '/home/u/.cache/trajaudit');
    assert.equal(defaultCacheDir({}, 'darwin', '/Users/u'), '/Users/u/Library/Caches/trajaudit');
  });
});
