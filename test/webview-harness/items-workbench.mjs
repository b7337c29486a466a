#!/usr/bin/env node
// Dev check of the benchmark-item view in the REAL workbench (code-server + headless Chromium,
// helpers of test/ui/lib): opens sample item files through "Trajectory Auditor: Open Benchmark
// Item View", turns blind review on (answering the reviewer-name prompt), records judgments,
// saves with Ctrl+S, reads the sidecar, marks a scenario criterion and saves results.jsonl, and
// takes screenshots in the dark and light themes into test-artifacts/webview/items/wb-*.png.
// The workspace is a temporary copy of samples/.
// Usage: node esbuild.mjs --no-check && node test/webview-harness/items-workbench.mjs [--keep]
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSession } from '../ui/lib/session.mjs';
import { editorFrame, quickOpen, runFromCommandPalette, sleep, toggleColorTheme, waitUntil } from '../ui/lib/workbench.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const shots = resolve(here, '../../test-artifacts/webview/items');
mkdirSync(shots, { recursive: true });
const keep = process.argv.includes('--keep');
let passed = 0;
let failed = 0;
function check(name, ok, detail = '') {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok' : 'not ok'} - ${name}${detail ? ` (${detail})` : ''}`);
}
const say = (m) => process.stderr.write(`[items-wb] ${m}\n`);

const session = await startSession({ prefix: 'trajaudit-items-ui-', settings: { 'workbench.colorTheme': 'Default Dark Modern' }, keep, say });
const { page, workspace, workbenchLog } = session;

async function openItemView(fileName, selector) {
  await quickOpen(page, fileName);
  await sleep(500);
  await runFromCommandPalette(page, 'Trajectory Auditor: Open Benchmark Item View');
  const frame = await editorFrame(page, { selector, timeoutMs: 30_000 });
  await sleep(600);
  return frame;
}

async function dirty() {
  return page
    .locator('.tabs-container .tab.active.dirty')
    .count()
    .then((n) => n > 0);
}

try {
  // ── Delegation: full view, then blind review ──────────────────────────────────────────────
  let frame = await openItemView('deleg-en-0231-oil-fund-equity-gap.json', '.ia-doc');
  check('the item view opens in the workbench', (await frame.locator('.ia-doc').count()) === 8);
  check('evidence spans are highlighted', (await frame.locator('.ia-doc-golden mark.ia-mark').count()) === 2);
  await page.screenshot({ path: join(shots, 'wb-deleg-full-dark.png') });

  await frame.locator('.ia-switch').click();
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ state: 'visible', timeout: 15_000 });
  check('turning blind review on asks for the reviewer name once', /reviewer name/i.test(await page.locator('.quick-input-widget').innerText()));
  await input.fill('annotator-1');
  await input.press('Enter');
  await frame.locator('.ia-deleg.is-blind').waitFor({ timeout: 15_000 });
  await waitUntil(async () => /annotator-1/.test(await frame.locator('.ia-reviewer').innerText()), { message: 'the reviewer name in the form' });
  const pageText = await frame.locator('.ia-app').innerText();
  check('blind mode hides the pipeline fields', !/Conflict hint|Discriminating constraint|slot mismatch|REASONING STEPS/.test(pageText));
  await frame.locator('[data-q="answerability"] .ia-yn-yes').click();
  await sleep(250);
  await frame.locator('[data-q="shortcut_free"] .ia-yn-yes').click();
  await sleep(250);
  for (const id of ['d01', 'd05']) {
    await frame.locator(`[data-docq="irrelevant:${id}"] .ia-yn-yes`).click();
    await sleep(200);
  }
  await frame.locator('[data-docq="irrelevant:d09"] .ia-yn-no').click();
  await sleep(200);
  await frame.locator('[data-docq="distractor:d02"] .ia-yn-yes').click();
  await sleep(300);
  check('judgments dirty the tab', await dirty());
  await frame.locator('.ia-main').evaluate((m) => m.scrollTo(0, 1200));
  await sleep(300);
  await page.screenshot({ path: join(shots, 'wb-deleg-blind-dark.png') });
  await frame.locator('.ia-main').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Control+S');
  await waitUntil(async () => !(await dirty()), { message: 'the tab to be clean after save', timeoutMs: 15_000 });
  const sidecarPath = join(workspace, 'items/delegation/deleg-en-0231-oil-fund-equity-gap.json.audit.json');
  check('Ctrl+S writes the sidecar', existsSync(sidecarPath));
  if (existsSync(sidecarPath)) {
    const review = JSON.parse(readFileSync(sidecarPath, 'utf8')).records['deleg-en-0231'].reviews[0];
    check(
      'the review is saved under the reviewer name',
      review.annotator === 'annotator-1' && review.answerability === true && review.irrelevant_labels.d09 === false && review.distractor_validity.d02 === true,
      JSON.stringify(review),
    );
  }
  await toggleColorTheme(page, 'vs');
  await sleep(800);
  await page.screenshot({ path: join(shots, 'wb-deleg-blind-light.png') });

  // ── scenario set ──────────────────────────────────────────────────────────────────────────
  frame = await openItemView('scenario-set.json', '.ia-crit');
  await frame.locator('.ia-crit.is-human .ia-yn-no').first().click();
  await sleep(300);
  await frame.locator('.ia-slist .ia-list-item').nth(1).click();
  await sleep(200);
  await frame.locator('.ia-crit.is-human .ia-yn-yes').first().click();
  await sleep(300);
  check('scenario marks dirty the tab', await dirty());
  await page.screenshot({ path: join(shots, 'wb-scenarios-light.png') });
  await frame.locator('.ia-main').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Control+S');
  await waitUntil(async () => !(await dirty()), { message: 'the tab to be clean after save', timeoutMs: 15_000 });
  const results = join(workspace, 'items/scenarios/scenarios-run/results.jsonl');
  check('Ctrl+S writes results.jsonl and the manifest', existsSync(results) && existsSync(join(workspace, 'items/scenarios/scenarios-run/trajaudit.run.json')));
  if (existsSync(results))
    check(
      'results lines',
      readFileSync(results, 'utf8') === '{"scenario":"TS-01","criteria":{"TS01-A5":false}}\n{"scenario":"TS-02","criteria":{"TS02-A4":true}}\n',
      readFileSync(results, 'utf8'),
    );
  await toggleColorTheme(page, 'vs-dark');
  await sleep(800);
  await page.screenshot({ path: join(shots, 'wb-scenarios-dark.png') });

  // ── DeepSearchQA and Clarify ──────────────────────────────────────────────────────────────
  frame = await openItemView('deepsearchqa-sample.csv', '.ia-dsqa');
  check('the DeepSearchQA table', (await frame.locator('.ia-dsqa tbody tr').count()) === 12);
  await page.screenshot({ path: join(shots, 'wb-dsqa-dark.png') });
  frame = await openItemView('clarify-instances.jsonl', '.ia-card');
  check('the Clarify-Then-Search cards', (await frame.locator('.ia-card').count()) === 6);
  await page.screenshot({ path: join(shots, 'wb-clarify-dark.png') });

  const csp = workbenchLog.filter((l) => /Content Security Policy|Refused to/i.test(l));
  check('no Content-Security-Policy violation', csp.length === 0, csp.slice(0, 2).join(' | '));
  check('no page errors', session.pageErrors.length === 0, session.pageErrors.slice(0, 2).join(' | '));
} catch (error) {
  failed++;
  console.log(`not ok - ${error.message}`);
  await page.screenshot({ path: join(shots, 'wb-fail.png') }).catch(() => {});
} finally {
  await session.stop();
}
console.log(`\n${passed} passed, ${failed} failed; screenshots in ${shots}`);
process.exit(failed ? 1 : 0);
