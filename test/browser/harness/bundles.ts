// Builds what the browser tests' pages load into `buildDir`: the editor's and the item views'
// bundles from webview/src (as esbuild.mjs builds dist/, with source maps) and the fake host's
// page script.
import { join } from 'node:path';
import { build, type BuildOptions } from 'esbuild';

const root = join(__dirname, '..', '..', '..');

export async function buildBundles(buildDir: string): Promise<void> {
  const common: BuildOptions = {
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    sourcemap: true,
    logLevel: 'warning',
    mainFields: ['module', 'main'],
  };
  await Promise.all([
    build({ ...common, entryPoints: [join(root, 'webview/src/editor/main.ts')], outfile: join(buildDir, 'editor.js') }),
    build({ ...common, entryPoints: [join(root, 'webview/src/editor/panels.ts')], outfile: join(buildDir, 'editor-panels.js'), globalName: 'trajauditPanels' }),
    build({ ...common, entryPoints: [join(root, 'webview/src/items/main.ts')], outfile: join(buildDir, 'items.js') }),
    build({ ...common, entryPoints: [join(root, 'webview/src/collection/main.ts')], outfile: join(buildDir, 'collection.js') }),
    build({ ...common, entryPoints: [join(root, 'webview/src/compare/main.ts')], outfile: join(buildDir, 'compare.js') }),
    build({ ...common, entryPoints: [join(__dirname, 'pageHost.ts')], outfile: join(buildDir, 'page-host.js') }),
  ]);
}
