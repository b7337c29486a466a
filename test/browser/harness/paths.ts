// Where the browser tests keep what they generate (test-artifacts/ is ignored by git).
import { join } from 'node:path';

export const repoRoot = join(__dirname, '..', '..', '..');
/** Bundles (build/) and generated fixture files (fixtures/). */
export const artifactsDir = join(repoRoot, 'test-artifacts', 'browser');
export const buildDir = join(artifactsDir, 'build');
export const fixturesDir = join(artifactsDir, 'fixtures');
/** Screenshots: the editor's in test-artifacts/webview/, the item views' in test-artifacts/webview/items/. */
export const editorShotsDir = join(repoRoot, 'test-artifacts', 'webview');
export const itemShotsDir = join(editorShotsDir, 'items');

export const HARNESS_URL_VARIABLE = 'TRAJAUDIT_HARNESS_URL';

/** The harness server's URL, which the global setup puts in the environment. */
export function harnessUrl(): string {
  const url = process.env[HARNESS_URL_VARIABLE];
  if (!url)
    throw new Error(`${HARNESS_URL_VARIABLE} is not set: run the browser tests with \`npx playwright test\` (playwright.config.ts starts the harness server)`);
  return url;
}
