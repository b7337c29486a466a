// The VSIX holds what .vscodeignore allows: every webview bundle esbuild.mjs builds must be on
// that allow-list, or the packed extension opens that view without its script.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const repo = join(__dirname, '..', '..', '..');

describe('the packed extension', () => {
  it('ships every webview bundle and its styles (.vscodeignore allow-list)', () => {
    const build = readFileSync(join(repo, 'esbuild.mjs'), 'utf8');
    const bundles = [...build.matchAll(/'(dist\/webview[\w-]*)\.js'/g)].map((m) => m[1]);
    assert.ok(bundles.length >= 6, `webview bundles found in esbuild.mjs: ${bundles.join(', ')}`);
    // A view's entry (…/main.ts) imports its styles; a bundle loaded later (the editor's panels) has none.
    const styled = new Set([...build.matchAll(/\['webview\/src\/[\w/]+\/main\.ts', '(dist\/webview[\w-]*)\.js'\]/g)].map((m) => m[1]));
    assert.ok(styled.size >= 5, `view entries found in esbuild.mjs: ${[...styled].join(', ')}`);
    const allowed = new Set(
      readFileSync(join(repo, '.vscodeignore'), 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('!'))
        .map((line) => line.slice(1).trim()),
    );
    const missing = bundles.flatMap((b) => (styled.has(b) ? [`${b}.js`, `${b}.css`] : [`${b}.js`])).filter((file) => !allowed.has(file));
    assert.deepEqual(missing, [], 'bundles left out of the VSIX');
  });
});
