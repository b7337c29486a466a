// Entry point of the integration tests, loaded by the VS Code extension host
// (extensionTestsPath). Same contract as @vscode/test-electron: export run().
//
// esbuild bundles this file (and every suite it imports) into
// out/test/integration/index.js, with `mocha` and `vscode` left external, so
// the suites cannot be discovered with a glob at run time: list each
// suite/*.test.ts file in SUITES below. test/runners/run-integration.mjs fails
// when a suite file is missing from this list.
import type Mocha from 'mocha';

type Loader = () => Promise<unknown>;

const SUITES: ReadonlyArray<readonly [string, Loader]> = [
  ['suite/activation.test.ts', () => import('./suite/activation.test.js')],
  ['suite/editor.test.ts', () => import('./suite/editor.test.js')],
  ['suite/audit.test.ts', () => import('./suite/audit.test.js')],
  ['suite/items.test.ts', () => import('./suite/items.test.js')],
  ['suite/secrets.test.ts', () => import('./suite/secrets.test.js')],
  ['suite/report.test.ts', () => import('./suite/report.test.js')],
  ['suite/harness.test.ts', () => import('./suite/harness.test.js')],
  ['suite/batchFolder.test.ts', () => import('./suite/batchFolder.test.js')],
  ['suite/resumeWithRepair.test.ts', () => import('./suite/resumeWithRepair.test.js')],
  ['suite/collectionQueue.test.ts', () => import('./suite/collectionQueue.test.js')],
];

type MochaConstructor = typeof Mocha;

export const OUTPUT_MARKER = '[trajaudit-integration]';

function loadMocha(): MochaConstructor {
  // mocha 12 is an ES module package whose main re-exports lib/mocha.cjs;
  // require() gives the namespace (Node >= 20.19) or the class itself.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
  const mod = require('mocha') as { Mocha?: MochaConstructor; default?: MochaConstructor } & MochaConstructor;
  const ctor = mod.Mocha ?? mod.default ?? mod;
  if (typeof ctor !== 'function') throw new Error('could not load the Mocha class from the "mocha" package');
  return ctor;
}

export async function run(): Promise<void> {
  const MochaClass = loadMocha();
  const mocha = new MochaClass({
    ui: 'tdd',
    color: false,
    timeout: Number(process.env.TRAJAUDIT_TEST_TIMEOUT_MS) || 60_000,
    reporter: 'spec',
  });
  const grep = process.env.TRAJAUDIT_TEST_GREP;
  if (grep) mocha.grep(grep);

  // Load each suite the way `mocha.loadFiles()` would: the pre-require event
  // installs the tdd globals (suite, test, setup, ...) bound to this instance.
  for (const [file, load] of SUITES) {
    mocha.suite.emit('pre-require', globalThis, file, mocha);
    const exported = await load();
    mocha.suite.emit('require', exported, file, mocha);
    mocha.suite.emit('post-require', globalThis, file, mocha);
  }

  // The runner (test/runners/run-integration.mjs) prints the extension host's
  // console output between these two markers.
  console.log(`${OUTPUT_MARKER} start`);
  await new Promise<void>((resolve, reject) => {
    try {
      mocha.run((failures) => {
        console.log(`${OUTPUT_MARKER} end (${failures} failed)`);
        if (failures > 0) reject(new Error(`${failures} integration test(s) failed.`));
        else resolve();
      });
    } catch (err) {
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}
