// Global setup of the browser tests (playwright.config.ts): builds the pages' bundles, writes the
// generated fixture files, starts the harness server and hands its URL to the workers through
// the environment; the returned function stops the server.
import { mkdirSync } from 'node:fs';
import { buildBundles } from './harness/bundles';
import { writeCollectionFixtures } from './harness/collectionFixtures';
import { writeEditorFixtures } from './harness/editorFixtures';
import { writeItemFixtures } from './harness/itemFixtures';
import { buildDir, editorShotsDir, fixturesDir, HARNESS_URL_VARIABLE, itemShotsDir } from './harness/paths';
import { startHarnessServer } from './harness/server';

export default async function globalSetup(): Promise<() => Promise<void>> {
  for (const dir of [editorShotsDir, itemShotsDir]) mkdirSync(dir, { recursive: true });
  await buildBundles(buildDir);
  writeEditorFixtures(fixturesDir);
  writeItemFixtures(fixturesDir);
  writeCollectionFixtures(fixturesDir);
  const server = await startHarnessServer(buildDir);
  process.env[HARNESS_URL_VARIABLE] = server.url;
  return () => server.close();
}
