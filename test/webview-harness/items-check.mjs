// Drives the item view in the harness with playwright-core + Debian Chromium: checks the
// behaviour the view relies on (blind mode, review posts, scenario marks, filters, inert
// rendering of hostile content) and writes screenshots into test-artifacts/webview/items/.
// Usage: node test/webview-harness/items-check.mjs [--shots-only]   (exit code 1 on any failure)
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startItemServer } from './items-server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const shots = resolve(here, '../../test-artifacts/webview/items');
mkdirSync(shots, { recursive: true });
const shotsOnly = process.argv.includes('--shots-only');

let passed = 0;
let failed = 0;
function check(name, ok, detail = '') {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok' : 'not ok'} - ${name}${detail ? ` (${detail})` : ''}`);
}

const { url, close } = await startItemServer({ port: 0 });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const pageErrors = [];

async function open(fixture, theme = 'dark', extra = '', viewport = { width: 1400, height: 900 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(`${fixture}: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(`${fixture} console: ${m.text()}`);
  });
  await page.goto(`${url}/?fixture=${fixture}&theme=${theme}${extra}`);
  await page.waitForSelector('.ia-body > :not(.ia-loading)', { timeout: 20_000 });
  await page.waitForTimeout(150);
  return { page, context };
}

async function shot(page, name) {
  await page.screenshot({ path: join(shots, `${name}.png`) });
}

const posted = (page, type) => page.evaluate((t) => window.__posted.filter((m) => m.type === t), type);
const settle = (page) => page.waitForTimeout(120);

// ── screenshots ───────────────────────────────────────────────────────────────────────────
for (const theme of ['light', 'dark']) {
  for (const [fixture, extra, name] of [
    ['deleg-en', '', 'deleg-full'],
    ['deleg-multi', '&blind=1', 'deleg-blind'],
    ['deleg-zh', '', 'deleg-zh-full'],
    ['dsqa-csv', '', 'dsqa'],
    ['clarify', '', 'clarify'],
    ['scenarios', '', 'scenarios'],
  ]) {
    const { page, context } = await open(fixture, theme, extra);
    await shot(page, `${name}-${theme}`);
    await context.close();
  }
}
{
  const { page, context } = await open('deleg-en', 'hc', '&blind=1');
  await shot(page, 'deleg-blind-hc');
  await context.close();
}

if (!shotsOnly) {
  // ── Delegation: full view ───────────────────────────────────────────────────────────────
  {
    const { page, context } = await open('deleg-en', 'dark');
    const marks = await page.locator('.ia-doc-golden mark.ia-mark').allTextContents();
    check('evidence spans are highlighted in the golden documents', marks.includes('Equity investments returned 21.3 percent, fixed-income investments returned 6.1 percent') && marks.includes('Equity investments 21.31; Fixed-income investments 6.13'), JSON.stringify(marks));
    check('groups: 2 golden, 3 irrelevant, 3 distractor', (await page.locator('.ia-doc-golden').count()) === 2 && (await page.locator('.ia-doc-irrelevant').count()) === 3 && (await page.locator('.ia-doc-distractor').count()) === 3);
    const audit = await page.locator('.ia-doc-distractor .ia-audit').first().innerText();
    check('distractor audit fields are shown in the full view', /Conflict hint/.test(audit) && /Discriminating constraint/.test(audit) && /Target info point/.test(audit), audit.slice(0, 80));
    check('reasoning steps are listed', (await page.locator('.ia-steps li').count()) === 3);
    await page.locator('.ia-group-distractor').scrollIntoViewIfNeeded();
    await page.evaluate(() => document.querySelector('.ia-group-distractor').scrollIntoView({ block: 'start' }));
    await settle(page);
    await shot(page, 'deleg-distractors-dark');
    await page.evaluate(() => document.querySelector('.ia-main').scrollTo(0, 0));
    await page.locator('.ia-span.is-clickable').first().click();
    await settle(page);
    check('clicking a span flashes its mark', (await page.locator('mark.ia-flash').count()) === 1);
    await page.locator('.ia-judge').count().then((n) => check('no judgment controls outside blind mode', n === 0));
    // Toggle blind mode
    await page.locator('.ia-switch').click();
    await page.waitForSelector('.ia-deleg.is-blind');
    await settle(page);
    const text = await page.locator('.ia-app').innerText();
    const leaks = [/Conflict hint|Discriminating constraint|Target info point|slot.mismatch|recency.trap|source.downgrade|Golden: 2023|calendar year 2022|own recalculation/i, /REASONING STEPS|EVIDENCE SPANS|Compute the difference/]
      .map((re) => re.exec(text)?.[0]).filter(Boolean);
    check('blind mode: no pipeline text in the page', leaks.length === 0, leaks.join(', '));
    check('blind mode: no evidence highlight', (await page.locator('mark.ia-mark').count()) === 0);
    check('blind mode: the webview asked for it', (await posted(page, 'setBlind')).at(-1)?.blind === true);
    check('blind mode: one judgment row per irrelevant and distractor document', (await page.locator('.ia-judge').count()) === 6);
    await context.close();
  }

  // ── Delegation: blind review ────────────────────────────────────────────────────────────
  {
    const { page, context } = await open('deleg-multi', 'dark', '&blind=1');
    check('several items: the item list shows them', (await page.locator('.ia-list-item').count()) === 3);
    await page.locator('[data-q="answerability"] .ia-yn-yes').click();
    await settle(page);
    await page.locator('[data-q="shortcut_free"] .ia-yn-no').click();
    await settle(page);
    await page.locator('.ia-doc-irrelevant .ia-judge .ia-yn-yes').first().click();
    await settle(page);
    await page.locator('[data-docq^="distractor:"] .ia-yn-no').first().click();
    await settle(page);
    const edits = await posted(page, 'editReview');
    check('review clicks post editReview patches', edits.length === 4 && edits[0].patch.answerability === true && edits[1].patch.shortcut_free === false && edits[2].patch.irrelevant?.value === true && edits[3].patch.distractor?.value === false, JSON.stringify(edits.map((e) => e.patch)));
    check('the card and the form show the same judgment', (await page.locator('.ia-doc-irrelevant .ia-judge .ia-yn-yes.is-on').count()) === 1 && (await page.locator('[data-docq^="irrelevant:"] .ia-yn-yes.is-on').count()) === 1);
    check('progress counts judgments', /4 of 8 judgments/.test(await page.locator('.ia-progress-text').innerText()));
    check('the list shows partial progress', (await page.locator('.ia-list-item.is-selected .ia-status-partial').count()) === 1);
    await page.locator('[data-q="answerability"] .ia-yn-yes').click();
    await settle(page);
    check('clicking the chosen answer clears it', (await posted(page, 'editReview')).at(-1).patch.answerability === null);
    const note = page.locator('textarea.ia-note');
    await note.fill('d05 is about AI, fine');
    await page.waitForTimeout(900);
    check('the note is sent once, debounced', (await posted(page, 'editReview')).filter((e) => 'notes' in e.patch).length === 1);
    await shot(page, 'deleg-blind-reviewed-dark');
    await page.locator('.ia-list-item').nth(1).click();
    await page.waitForTimeout(200);
    check('selecting another item asks the host', (await posted(page, 'selectItem')).at(-1)?.itemId === 'deleg-zh-0158');
    check('the zh item shows in blind mode', /巴黎/.test(await page.locator('.ia-query').innerText()));
    await context.close();
  }
  {
    const { page, context } = await open('deleg-en', 'light', '&blind=1&reviewer=');
    check('without a reviewer name the form is disabled and offers to set one', (await page.locator('.ia-yn:disabled').count()) > 0 && (await page.locator('.ia-reviewer .ia-tb-primary').count()) === 1);
    await page.locator('.ia-reviewer .ia-tb-primary').click();
    await page.waitForTimeout(200);
    check('set name asks the host', (await posted(page, 'askReviewer')).length === 1 && (await page.locator('.ia-yn:disabled').count()) === 0);
    await context.close();
  }

  // ── hostile content ─────────────────────────────────────────────────────────────────────
  for (const blind of ['', '&blind=1']) {
    const { page, context } = await open('hostile', 'dark', blind);
    const r = await page.evaluate(() => ({
      pwned: window.__pwned,
      active: document.querySelectorAll('#root img, #root iframe, #root script, #root svg, #root a[href], #root b, #root i').length,
    }));
    check(`hostile content stays text${blind ? ' (blind)' : ''}`, r.pwned === undefined && r.active === 0, JSON.stringify(r));
    check(`bidi and zero-width characters are shown${blind ? ' (blind)' : ''}`, (await page.locator('.ctrl-char').count()) >= 2);
    if (!blind) check('a span with markup-looking text is highlighted as text', (await page.locator('mark.ia-mark').allTextContents()).some((t) => t.includes('<img src=x onerror')));
    await context.close();
  }

  // ── DeepSearchQA ────────────────────────────────────────────────────────────────────────
  {
    const { page, context } = await open('dsqa-csv', 'dark');
    check('the table lists every row', (await page.locator('.ia-dsqa tbody tr').count()) === 12);
    await page.selectOption('.ia-filterbar select >> nth=0', 'Sports');
    await settle(page);
    const sports = await page.locator('.ia-dsqa tbody tr').count();
    check('category filter', sports > 0 && sports < 12 && /of 12 rows/.test(await page.locator('.ia-filter-count').innerText()), String(sports));
    await page.selectOption('.ia-filterbar select >> nth=0', '');
    await page.selectOption('.ia-filterbar select >> nth=1', 'Single Answer');
    await settle(page);
    const singles = await page.locator('.ia-dsqa tbody tr').count();
    check('answer-type filter', singles > 0 && singles < 12, String(singles));
    await page.selectOption('.ia-filterbar select >> nth=1', '');
    await page.fill('.ia-search', 'tungsten');
    await page.waitForTimeout(300);
    check('search filters and highlights', (await page.locator('.ia-dsqa tbody tr').count()) === 1 && (await page.locator('mark.ia-hit').count()) >= 1);
    await context.close();
  }

  // ── Clarify ─────────────────────────────────────────────────────────────────────────────
  {
    const { page, context } = await open('clarify', 'dark');
    check('clarify: one card per instance, blurred and fused queries', (await page.locator('.ia-card').count()) === 6 && (await page.locator('.ia-cmp-fused').count()) === 6);
    check('clarify: nuggets with weight pips', (await page.locator('.ia-nugget .ia-pips').count()) > 6);
    await context.close();
  }

  // ── scenario sets ───────────────────────────────────────────────────────────────────────
  {
    const { page, context } = await open('scenarios', 'dark');
    check('scenario list', (await page.locator('.ia-slist .ia-list-item').count()) === 10);
    const human = page.locator('.ia-crit.is-human').first();
    await human.locator('.ia-yn-yes').click();
    await settle(page);
    const marks = await posted(page, 'markCriterion');
    check('marking a human criterion posts it', marks.length === 1 && marks[0].criterionId === 'TS01-A5' && marks[0].value === true, JSON.stringify(marks));
    check('the mark shows and the scenario is unsaved', (await page.locator('.ia-crit.is-human.is-hit').count()) === 1 && (await page.locator('.ia-slist .ia-dirty').count()) === 1);
    await page.locator('.ia-check input').check();
    await settle(page);
    check('human-only filter', (await page.locator('.ia-crit').count()) === (await page.locator('.ia-crit.is-human').count()));
    await page.locator('.ia-check input').uncheck();
    await page.locator('.ia-num').fill('2');
    await page.locator('.ia-num').press('Enter');
    await settle(page);
    check('silent citations are posted', (await posted(page, 'setSilentCitations')).at(-1)?.value === 2);
    await page.locator('.ia-slist .ia-list-item').nth(1).click();
    await settle(page);
    check('selecting a scenario shows it', /TS-02/.test(await page.locator('.ia-smain .ia-item-id').first().innerText()));
    await shot(page, 'scenarios-marked-dark');
    await context.close();
  }

  // ── narrow width ───────────────────────────────────────────────────────────────────────
  {
    const { page, context } = await open('deleg-multi', 'light', '&blind=1', { width: 900, height: 800 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
    check('no horizontal overflow at 900 px', !overflow);
    await shot(page, 'deleg-blind-900-light');
    await context.close();
  }
  check('no page errors', pageErrors.length === 0, pageErrors.slice(0, 3).join(' | '));
}

await browser.close();
await close();
console.log(`\n${passed} passed, ${failed} failed; screenshots in ${shots}`);
process.exit(failed ? 1 : 0);
