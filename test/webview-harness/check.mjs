// Drives the webview in the harness with playwright-core + Debian chromium and checks the
// behaviour the editor relies on; takes screenshots into test-artifacts/webview/.
// Usage: node test/webview-harness/check.mjs            (exit code 1 on any failure)
import { mkdirSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from './server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const shots = resolve(here, '../../test-artifacts/webview');
mkdirSync(shots, { recursive: true });

let passed = 0;
let failed = 0;
function check(name, ok, detail = '') {
  if (ok) {
    passed++;
    console.log(`ok - ${name}${detail ? ` (${detail})` : ''}`);
  } else {
    failed++;
    console.log(`not ok - ${name}${detail ? ` (${detail})` : ''}`);
  }
}

const { url, close } = await startServer({ port: 0 });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});

const dialogs = [];
const pageErrors = [];
async function open(fixture, theme = 'dark', viewport = { width: 1280, height: 800 }, extra = '') {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('pageerror', (e) => pageErrors.push(`${fixture}: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(`${fixture} console: ${m.text()}`);
  });
  const t0 = Date.now();
  await page.goto(`${url}/?fixture=${fixture}&theme=${theme}${extra}`);
  await page.waitForSelector('.tl-row', { timeout: 30_000 });
  const loadMs = Date.now() - t0;
  return { page, context, loadMs };
}

const selected = (page) => page.evaluate(() => {
  const el = document.querySelector('.tl-row[aria-selected="true"]');
  return el ? Number(el.getAttribute('data-position')) : null;
});
const rowInView = (page, position) => page.evaluate((p) => {
  const row = document.getElementById(`tl-row-${p}`);
  const scroller = document.querySelector('.tl-scroller');
  if (!row || !scroller) return false;
  const a = row.getBoundingClientRect();
  const b = scroller.getBoundingClientRect();
  return a.top >= b.top - 1 && a.top < b.bottom - 10;
}, position);
const posted = (page, type) => page.evaluate((t) => window.__posted.filter((m) => m.type === t), type);
const lastEdit = async (page) => (await posted(page, 'editAnnotation')).at(-1);
const press = async (page, key, times = 1) => {
  for (let i = 0; i < times; i++) await page.keyboard.press(key);
  await page.waitForTimeout(40);
};
const reveal = async (page, position) => {
  await page.evaluate((p) => window.__harness.reveal(p), position);
  await page.waitForTimeout(80);
};
const hostile = (page) => page.evaluate(() => ({
  pwned: window.__pwned,
  imgs: document.querySelectorAll('img, iframe, object, embed, script:not([src])').length,
  liveLinks: [...document.querySelectorAll('a[href]')].length,
  svgInContent: document.querySelectorAll('.tl-content svg, .right-scroll svg, .app-header svg').length,
  bodyVisible: getComputedStyle(document.body).display !== 'none',
  csp: window.__cspViolations,
}));

// ── small fixture: interaction ────────────────────────────────────────────────────────────
{
  const { page, context, loadMs } = await open('small', 'dark');
  const t = await page.evaluate(() => window.__harness.timings);
  check('small: rows render after init', (await page.locator('.tl-row').count()) > 10, `${Math.round(t.firstRowAt - t.initSentAt)} ms after init, ${loadMs} ms page load`);
  check('small: header shows query, predicted and gold answers', (await page.locator('.hdr-query').textContent()).includes('chamber opera') && (await page.locator('.ans-gold').textContent()).includes('Liisa Tamm'));
  await page.waitForFunction(() => !document.querySelector('.stat.is-pending'), null, { timeout: 15000 });
  check('small: token totals arrive after init', (await page.locator('.hdr-stats').textContent()).includes('tool returns'));
  check('small: decision steps stand out (accent class)', (await page.locator('.tl-row.kind-decision').count()) > 5);
  check('small: timeline is a listbox with options', (await page.locator('.tl-scroller[role="listbox"] .tl-row[role="option"][aria-label]').count()) > 5);

  // j / k / J / K
  await page.locator('.tl-scroller').focus();
  const s0 = await selected(page);
  await press(page, 'j', 2);
  const s2 = await selected(page);
  await press(page, 'k');
  const s1 = await selected(page);
  check('j/k move the selection', s0 === 0 && s2 === 2 && s1 === 1, `${s0} → ${s2} → ${s1}`);
  const active = await page.locator('.tl-scroller').getAttribute('aria-activedescendant');
  check('aria-activedescendant follows the selection', active === 'tl-row-1', active ?? '');
  await press(page, 'J');
  const d1 = await selected(page);
  await press(page, 'J');
  const d2 = await selected(page);
  await press(page, 'K');
  check('J/K move between decision steps', d1 === 2 && d2 === 4 && (await selected(page)) === 2, `${d1}, ${d2}`);

  // search off-screen
  await press(page, '/');
  const searchFocused = await page.evaluate(() => document.activeElement?.classList.contains('search-input'));
  check('/ focuses the search box', !!searchFocused);
  await page.keyboard.type('lists Liisa Tamm as librettist');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('.search-status')?.textContent?.includes('of'), null, { timeout: 15000 });
  const afterSearch = await selected(page);
  check('search finds an off-screen match and reveals it', afterSearch === 40 && (await rowInView(page, 40)), `selected ${afterSearch}, status "${await page.locator('.search-status').textContent()}"`);
  const searchMsg = (await posted(page, 'search')).at(-1);
  check('search request goes to the host with the text', searchMsg?.query?.text === 'lists Liisa Tamm as librettist' && typeof searchMsg.requestId === 'number');
  await page.keyboard.press('Escape');
  await page.waitForTimeout(50);
  check('Esc closes the search', (await page.locator('.search-status').textContent()) === '' && !(await page.evaluate(() => document.activeElement?.classList.contains('search-input'))));

  // n / N over several matches (role filter: tool only)
  await press(page, '/');
  await page.keyboard.type('Programme booklet');
  await page.waitForTimeout(450);
  await page.evaluate(() => document.querySelector('.tl-scroller').focus());
  await press(page, 'n');
  const n1 = await selected(page);
  await press(page, 'n');
  const n2 = await selected(page);
  await press(page, 'N');
  check('n/N step through matches', n1 !== null && n2 !== n1 && (await selected(page)) === n1, `${n1} → ${n2}`);
  await page.keyboard.press('Escape');

  // role filter: untick "tool" → the request names the remaining roles
  await page.locator('button', { hasText: 'Filters' }).click();
  await page.locator('.search-filters vscode-checkbox[label="tool"]').click();
  await press(page, '/');
  await page.keyboard.type('booklet');
  await page.keyboard.press('Enter');
  await page.waitForTimeout(200);
  const filtered = (await posted(page, 'search')).at(-1);
  check('role filter is sent with the search', JSON.stringify(filtered?.query?.roles) === '["system","user","assistant"]' && filtered.query.text === 'booklet', JSON.stringify(filtered?.query));
  await page.locator('.search-filters vscode-checkbox[label="tool"]').click();
  await page.keyboard.press('Escape');
  await page.locator('.tl-scroller').focus();
  await page.keyboard.press('Escape');

  // outline click
  await page.locator('.ol-scroller').evaluate((el) => (el.scrollTop = el.scrollHeight));
  await page.waitForTimeout(100);
  const entry = page.locator('.ol-item[data-position="77"]');
  await entry.click();
  await page.waitForTimeout(80);
  check('clicking an outline entry reveals the row', (await selected(page)) === 77 && (await rowInView(page, 77)));

  // expand a tool return with hostile content
  await reveal(page, 5);
  await press(page, 'Enter');
  await page.waitForSelector('#tl-row-5 .msg-body', { timeout: 15000 });
  const body5 = await page.locator('#tl-row-5 .msg-body').textContent();
  check('Enter expands a tool return and shows its text (hostile markup as plain text)', /Search results for|Title:/.test(body5) && body5.includes('<img src=x onerror'), `${body5.length} chars shown`);
  check('getMessage carries recordId and position', (await posted(page, 'getMessage')).some((m) => m.position === 5 && m.recordId === 'baltic-chamber-opera'));
  await press(page, 'o');
  check('o collapses it again', (await page.locator('#tl-row-5 .msg-body').count()) === 0);

  // expand every hostile return + the bidi one
  for (const p of [13, 21, 29, 37, 45, 53, 61, 69, 78]) {
    await reveal(page, p);
    await press(page, 'Enter');
  }
  await page.waitForTimeout(200);
  check('bidi / zero-width characters are shown as visible escapes', (await page.locator('.ctrl-char').count()) > 0, `${await page.locator('.ctrl-char').count()} marked`);

  // invalid JSON arguments flagged
  await reveal(page, 44);
  await press(page, 'Enter');
  await page.waitForSelector('#tl-row-44 .msg-body');
  check('invalid tool-call JSON is flagged', (await page.locator('#tl-row-44 .pill-error').count()) > 0);

  // 1 MB single line: chunked, capped, wraps
  await reveal(page, 63);
  await press(page, 'Enter');
  await page.waitForSelector('#tl-row-63 .msg-body .msg-more', { timeout: 15000 });
  const big = await page.evaluate(() => {
    const body = document.querySelector('#tl-row-63 .msg-body');
    const text = body.querySelector('.msg-text');
    return { h: body.getBoundingClientRect().height, vh: window.innerHeight, scrollW: text.scrollWidth, clientW: text.clientWidth };
  });
  check('a 1 MB single line is chunked, capped at 60vh and wraps', big.h <= big.vh * 0.6 + 2 && big.scrollW <= big.clientW + 1, `${Math.round(big.h)} px tall, no horizontal overflow`);

  // annotation shortcuts
  await reveal(page, 14);
  await press(page, 'c');
  await page.waitForTimeout(60);
  let e = await lastEdit(page);
  check('c marks the selected decision step critical', e?.annotation?.criticalStep === 14 && e.label === 'Set critical step 14' && /\d{4}-\d\d-\d\dT/.test(e.annotation.updatedAt ?? ''), e?.label);
  await reveal(page, 12);
  await press(page, '[');
  await page.waitForTimeout(60);
  e = await lastEdit(page);
  check('[ sets the span start', JSON.stringify(e?.annotation?.toleranceSpan) === '[12,14]' && e.annotation.criticalStep === 14, JSON.stringify(e?.annotation?.toleranceSpan));
  await reveal(page, 16);
  await press(page, ']');
  await page.waitForTimeout(60);
  e = await lastEdit(page);
  check('] sets the span end', JSON.stringify(e?.annotation?.toleranceSpan) === '[12,16]', JSON.stringify(e?.annotation?.toleranceSpan));
  await press(page, '1');
  await page.waitForTimeout(60);
  e = await lastEdit(page);
  check('1 picks the first root cause, keeping the other fields', e?.annotation?.rootCause === 'candidate_mismanagement' && e.annotation.criticalStep === 14 && JSON.stringify(e.annotation.toleranceSpan) === '[12,16]', e?.label);
  check('the root-cause definition is shown', (await page.locator('.cause-def').textContent()).includes('fails to maintain, compare, or update candidate answers'));
  const editsBefore = (await posted(page, 'editAnnotation')).length;
  await reveal(page, 20);
  await press(page, '[');
  await page.waitForTimeout(60);
  check('an invalid span is not sent and shows an inline error', (await posted(page, 'editAnnotation')).length === editsBefore && (await page.locator('.annotation .field-msg.is-error').count()) > 0, await page.locator('.annotation .field-msg.is-error').first().textContent());
  await reveal(page, 13);
  await press(page, 'c');
  await page.waitForTimeout(60);
  check('c on a tool return is refused', (await posted(page, 'editAnnotation')).length === editsBefore);

  // free text: one edit on blur, not per keystroke
  const rationale = page.locator('.annotation textarea').first();
  await rationale.click();
  await page.keyboard.type('Trusted the fan wiki.');
  await page.locator('.tl-scroller').focus();
  await page.waitForTimeout(150);
  const edits = await posted(page, 'editAnnotation');
  e = edits.at(-1);
  check('rationale posts one edit on blur with the whole annotation', edits.length === editsBefore + 1 && e.annotation.rationale === 'Trusted the fan wiki.' && e.annotation.rootCause === 'candidate_mismanagement' && e.label === 'Edit rationale');

  // host undo re-renders from the host annotation
  await page.evaluate(() => window.__harness.undo());
  await page.waitForTimeout(80);
  check('host undo (annotation message) re-renders the panel', (await rationale.inputValue()) === '');

  // reveal from the host
  await reveal(page, 50);
  check('host reveal selects and scrolls to the row', (await selected(page)) === 50 && (await rowInView(page, 50)));

  // g prompt
  await press(page, 'g');
  await page.keyboard.type('70');
  await page.keyboard.press('Enter');
  await page.waitForTimeout(80);
  check('g goes to a typed position', (await selected(page)) === 70);

  // answer trace
  await page.locator('.trace-button').click();
  await page.waitForSelector('.trace-chip', { timeout: 15000 });
  const firstChip = await page.locator('.trace-chip.is-first').first().textContent();
  check('answer trace shows clickable occurrences with the first flagged by source', (await page.locator('.trace-chip').count()) >= 3 && /first · (search snippet|visited page|reasoning|tool return)/.test(firstChip ?? ''), firstChip ?? '');
  await page.locator('.trace-chip').nth(1).click();
  await page.waitForTimeout(80);
  check('clicking a trace chip reveals its row', (await selected(page)) === Number((await page.locator('.trace-chip').nth(1).getAttribute('data-position'))));

  // audits
  check('audit diagnosis and branches are listed', (await page.locator('.audit-diag').count()) >= 1 && (await page.locator('.branch').count()) === 3);
  await page.locator('.audit-diag .step-chip').first().click();
  await page.waitForTimeout(80);
  check('audit chips reveal their step', (await selected(page)) === 16);
  const vsYou = await page.locator('.verdicts li', { hasText: 'Audit vs you' }).textContent();
  check('human vs audit comparison: step within span, cause differs', vsYou.includes('step within span') && vsYou.includes('cause differs'), vsYou);

  // density strip click
  const strip = await page.locator('.density-strip').boundingBox();
  await page.mouse.click(strip.x + strip.width / 2, strip.y + strip.height * 0.9);
  await page.waitForTimeout(80);
  const afterStrip = await selected(page);
  check('clicking the density strip jumps', afterStrip !== null && afterStrip >= 60, `selected ${afterStrip}`);

  // shortcuts overlay
  await page.locator('.tl-scroller').focus();
  await press(page, '?');
  const overlayOpen = await page.locator('.overlay-backdrop').isVisible();
  await press(page, 'Escape');
  check('? shows the shortcuts overlay and Esc closes it', overlayOpen && !(await page.locator('.overlay-backdrop').isVisible()));

  // security
  const h = await hostile(page);
  check('no hostile content executed or rendered as markup', h.pwned === undefined && h.imgs === 0 && h.liveLinks === 0 && h.svgInContent === 0 && h.bodyVisible, JSON.stringify({ pwned: h.pwned, imgs: h.imgs, links: h.liveLinks }));
  check('no CSP violations', h.csp.length === 0, JSON.stringify(h.csp));
  check('no dialogs opened', dialogs.length === 0);

  // state restore after reload
  await reveal(page, 33);
  await page.waitForTimeout(400);
  await page.reload();
  await page.waitForSelector('.tl-row');
  await page.waitForTimeout(200);
  check('reloaded webview restores the selection (UI state only)', (await selected(page)) === 33);
  const saved = await page.evaluate(() => sessionStorage.getItem('trajaudit-harness-state') ?? '');
  check('persisted state holds no trajectory text or annotation', !saved.includes('Liisa') && !saved.includes('fan wiki') && !saved.includes('rationale'), `${saved.length} bytes`);
  await context.close();
}

// ── screenshots of a worked state, light and dark ─────────────────────────────────────────
async function worked(theme, name, viewport = { width: 1280, height: 820 }) {
  const { page, context } = await open('small', theme, viewport);
  await page.waitForTimeout(350);
  for (const [p, key] of [[14, 'c'], [12, '['], [16, ']'], [14, '4']]) {
    await reveal(page, p);
    await press(page, key);
  }
  await page.locator('.trace-button').click();
  await page.waitForSelector('.trace-chip');
  await press(page, '/');
  await page.keyboard.type('booklet');
  await page.waitForTimeout(450);
  await reveal(page, 13);
  await press(page, 'Enter');
  await reveal(page, 12);
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(shots, name) });
  // the comparison and audit results further down the right panel
  await page.locator('.audit').evaluate((el) => el.scrollIntoView());
  await page.waitForTimeout(100);
  await page.screenshot({ path: join(shots, name.replace('.png', '-audits.png')) });
  const h = await hostile(page);
  await context.close();
  return h;
}
for (const [theme, file] of [['light', 'small-light.png'], ['dark', 'small-dark.png'], ['hc', 'small-hc.png']]) {
  const h = await worked(theme, file);
  check(`screenshot ${file}`, h.pwned === undefined && h.csp.length === 0);
}
{
  const h = await worked('dark', 'small-dark-1000px.png', { width: 1000, height: 760 });
  check('layout works at 1000 px wide', h.bodyVisible);
}

// ── large fixture: 5,000 messages ─────────────────────────────────────────────────────────
{
  const { page, context, loadMs } = await open('large', 'dark');
  const t = await page.evaluate(() => window.__harness.timings);
  const firstRows = Math.round(t.firstRowAt - t.initSentAt);
  const domRows = await page.locator('.tl-row').count();
  check('5,000 messages: first rows visible quickly after init', firstRows < 1000, `${firstRows} ms after init; ${loadMs} ms from navigation (incl. 14 MB fixture script)`);
  check('5,000 messages: only rows near the viewport are in the DOM', domRows < 150, `${domRows} rows in DOM`);
  const outlineItems = await page.locator('.ol-item').count();
  check('5,000 messages: the outline is virtualized too', outlineItems < 120, `${outlineItems} items in DOM`);
  await page.locator('.tl-scroller').focus();
  const tEnd = Date.now();
  await press(page, 'End');
  check('End jumps to the last message', (await selected(page)) === 4999 && (await rowInView(page, 4999)), `${Date.now() - tEnd} ms`);
  // wheel-like scrolling (120 px a frame) and big jumps (1/60 of the file a frame)
  const scrollStats = (mode) => page.evaluate(async (m) => {
    const long = [];
    const obs = new PerformanceObserver((l) => long.push(...l.getEntries().map((e) => e.duration)));
    obs.observe({ type: 'longtask', buffered: false });
    const s = document.querySelector('.tl-scroller');
    s.scrollTop = s.scrollHeight / 3;
    await new Promise((r) => requestAnimationFrame(r));
    const frames = [];
    let last = performance.now();
    for (let i = 0; i < 120; i++) {
      if (m === 'wheel') s.scrollTop += 120;
      else s.scrollTop = (s.scrollHeight * (i % 60)) / 60;
      await new Promise((r) => requestAnimationFrame(r));
      const now = performance.now();
      frames.push(now - last);
      last = now;
    }
    await new Promise((r) => setTimeout(r, 60));
    obs.disconnect();
    frames.sort((a, b) => a - b);
    return { median: frames[frames.length >> 1], p95: frames[Math.floor(frames.length * 0.95)], longTasks: long.length };
  }, mode);
  const wheel = await scrollStats('wheel');
  check('wheel-like scrolling through 5,000 rows is smooth', wheel.longTasks <= 2 && wheel.median < 25, `median frame ${wheel.median.toFixed(1)} ms, p95 ${wheel.p95.toFixed(1)} ms, ${wheel.longTasks} long tasks (headless, software raster)`);
  const jumps = await scrollStats('jump');
  check('jumping across the file replaces every row each frame without stalls', jumps.p95 < 120, `median frame ${jumps.median.toFixed(1)} ms, p95 ${jumps.p95.toFixed(1)} ms, ${jumps.longTasks} tasks > 50 ms`);
  check('DOM stays bounded after scrolling', (await page.locator('.tl-row').count()) < 150);
  await press(page, '/');
  await page.keyboard.type('needle!!');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /of/.test(document.querySelector('.search-status')?.textContent ?? ''), null, { timeout: 10_000 });
  const status = await page.locator('.search-status').textContent();
  check('search over 5,000 messages including 1 MB returns', status === '1 of 3', status ?? '');
  const p = await selected(page);
  const t0 = Date.now();
  await page.locator('.tl-scroller').focus();
  await press(page, 'Enter');
  await page.waitForSelector(`#tl-row-${p} .msg-more`, { timeout: 10_000 });
  check('expanding a 1 MB return renders fast', Date.now() - t0 < 1500, `${Date.now() - t0} ms`);
  await page.waitForTimeout(200);
  await page.screenshot({ path: join(shots, 'large-dark.png') });
  const h = await hostile(page);
  check('large: nothing hostile executed', h.pwned === undefined && h.csp.length === 0);
  console.log(`# first rows for 5,000 messages: ${firstRows} ms after init (${loadMs} ms from navigation)`);
  await context.close();
}

// ── multi-record (JSONL) fixture ──────────────────────────────────────────────────────────
{
  const { page, context } = await open('multi', 'light');
  check('JSONL: the record list is shown', await page.locator('.records').isVisible());
  const first = await page.locator('.hdr-record').textContent();
  await page.locator('.tl-scroller').focus();
  await press(page, 'L');
  await page.waitForFunction((f) => document.querySelector('.hdr-record')?.textContent !== f, first, { timeout: 15000 });
  const sel = (await posted(page, 'selectRecord')).at(-1);
  check('L posts selectRecord and the view switches', sel?.recordId === 'rec-002' && (await page.locator('.hdr-record').textContent()) === 'rec-002');
  await press(page, 'H');
  await page.waitForFunction(() => document.querySelector('.hdr-record')?.textContent === 'rec-001', null, { timeout: 15000 });
  check('H goes back', true);
  await page.locator('.seg-btn', { hasText: 'Disagree' }).click();
  const n = await page.locator('.rl-item').count();
  check('record filters narrow the list', n > 0 && n < 14, `${n} disagreeing`);
  await page.locator('.seg-btn', { hasText: 'All' }).click();
  // unknown fields survive an edit
  await press(page, '2');
  await page.waitForTimeout(80);
  const e = await lastEdit(page);
  check('unknown annotation fields are preserved on edit', e?.annotation?.customField?.keep === true && e.annotation.rootCause === 'search_coverage_gap' && e.annotation.annotator === 'ada', e?.label);
  // text typed in one record, then a click on another record: the edit goes to the first
  const before = (await posted(page, 'editAnnotation')).length;
  await page.locator('.annotation textarea').first().click();
  await page.keyboard.type('Typed in rec-001');
  await page.locator('.rl-item[data-id="rec-003"]').click();
  await page.waitForFunction(() => document.querySelector('.hdr-record')?.textContent === 'rec-003', null, { timeout: 15000 });
  const edits = await posted(page, 'editAnnotation');
  const order = (await page.evaluate(() => window.__posted.map((m) => m.type))).filter((t) => t === 'editAnnotation' || t === 'selectRecord').slice(-2);
  check('a pending text edit is sent to its own record before switching', edits.length === before + 1 && edits.at(-1).recordId === 'rec-001' && edits.at(-1).annotation.rationale === 'Typed in rec-001' && order.join() === 'editAnnotation,selectRecord');
  check('the new record shows its own (empty) rationale', (await page.locator('.annotation textarea').first().inputValue()) === '');

  // reveal into another record
  await page.evaluate(() => window.__harness.reveal(9, 'rec-004'));
  await page.waitForFunction(() => document.querySelector('.hdr-record')?.textContent === 'rec-004', null, { timeout: 15000 });
  await page.waitForTimeout(100);
  check('reveal after a record switch selects the row', (await selected(page)) === 9);
  await page.screenshot({ path: join(shots, 'multi-light.png') });
  await press(page, '?');
  await page.screenshot({ path: join(shots, 'shortcuts-light.png') });
  await context.close();
}

// ── the window loses focus before the side panels are mounted ──────────────────────────────
{
  // The panels render after the first rows; a blur in between (focus moving back to the
  // workbench while the editor opens) must not commit their still-empty fields over the annotation.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (!document.querySelector('.tl-row')) return;
      observer.disconnect();
      window.__blurredBeforePanels = !document.querySelector('.annotation');
      window.dispatchEvent(new Event('blur'));
    }).observe(document, { childList: true, subtree: true });
  });
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(`multi (early blur): ${e.message}`));
  await page.goto(`${url}/?fixture=multi&theme=dark`);
  await page.waitForSelector('.annotation', { timeout: 30_000 });
  await page.waitForTimeout(300);
  const annotator = await page.evaluate(() => document.querySelector('.annotation vscode-textfield[aria-label="Annotator"]')?.value);
  check('a blur before the side panels are mounted sends no edit and the annotation shows', (await page.evaluate(() => window.__blurredBeforePanels)) === true && (await posted(page, 'editAnnotation')).length === 0 && annotator === 'ada', `annotator ${JSON.stringify(annotator)}, edits ${JSON.stringify(await posted(page, 'editAnnotation'))}`);
  await context.close();
}

// ── keys pressed after the app started but before its view came are replayed too ────────────
{
  // A view too big to embed in the page comes by message 100–300 ms after the app starts; keys
  // pressed in that gap must not act on an empty timeline and be lost. The fake host sends the
  // view only when told (?initAfter=manual), so the keys surely come first.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(`late view: ${e.message}`));
  await page.goto(`${url}/?fixture=small&theme=dark&initAfter=manual`);
  await page.waitForFunction(() => performance.getEntriesByName('trajaudit/app-start').length > 0 && typeof window.__harness.sendInit === 'function', null, { timeout: 30_000 });
  // F1 and x are not the editor's keys: VS Code has had them already, a replay would send them twice.
  for (const key of ['j', 'F1', 'j', 'x', 'J']) await page.keyboard.press(key);
  const beforeView = await page.evaluate(() => !performance.getEntriesByName('trajaudit/init-start').length);
  await page.evaluate(() => window.__harness.sendInit());
  await page.waitForFunction(() => performance.getEntriesByName('trajaudit/panels-mounted').length > 0 && performance.getEntriesByName('trajaudit/early-keys').length > 0, null, { timeout: 30_000 });
  // The replay runs in a task after the first view; the selection settles on the first decision step after 2.
  const expected = await page.evaluate(() => [...document.querySelectorAll('.tl-row.kind-decision, .tl-row.kind-final')].map((r) => Number(r.dataset.position)).filter((p) => p > 2).sort((a, b) => a - b)[0]);
  const selected = await page.waitForFunction((want) => Number(document.querySelector('.tl-row[aria-selected="true"]')?.dataset.position) === want, expected, { timeout: 10_000 }).then(() => expected, async () => page.evaluate(() => Number(document.querySelector('.tl-row[aria-selected="true"]')?.dataset.position)));
  const early = await page.evaluate(() => performance.getEntriesByName('trajaudit/early-keys')[0]?.detail);
  check('late view: the editor\'s keys pressed after the app started, before its view came, are replayed (j j J), no other key (F1, x)', beforeView && early === 3 && selected === expected, `keys pressed before the view: ${beforeView}, early keys ${early}, selected ${selected}, expected ${expected}`);
  await context.close();
}

// ── the app takes focus only with its page ─────────────────────────────────────────────────────
{
  // The app starts a moment after its editor appears; if the user has moved on (the command
  // palette, another editor), focusing the timeline would pull focus back into the webview.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => {
    window.__pageFocused = false;
    Document.prototype.hasFocus = function () { return window.__pageFocused; };
  });
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(`focus: ${e.message}`));
  await page.goto(`${url}/?fixture=small&theme=dark`);
  await page.waitForFunction(() => performance.getEntriesByName('trajaudit/panels-mounted').length > 0, null, { timeout: 30_000 });
  const unfocused = await page.evaluate(() => document.activeElement?.className ?? null);
  const focused = await page.evaluate(() => {
    window.__pageFocused = true;
    window.dispatchEvent(new FocusEvent('focus'));
    return document.activeElement?.className ?? null;
  });
  check('focus: without page focus the app leaves focus alone; it focuses the timeline when the page gets focus', !/tl-scroller/.test(unfocused ?? '') && /tl-scroller/.test(focused ?? ''), `before: ${unfocused}, after the page got focus: ${focused}`);
  await context.close();
}

// ── a restored editor page (saved UI state) asks for its view and restores its place ───────
{
  // When VS Code brings a hidden tab back, the page starts again with its saved state: its
  // embedded view may be older than the document, so it asks for a fresh one.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(`restored page: ${e.message}`));
  await page.goto(`${url}/?fixture=small&theme=dark`);
  await page.waitForFunction(() => performance.getEntriesByName('trajaudit/panels-mounted').length > 0, null, { timeout: 30_000 });
  const recordId = 'baltic-chamber-opera'; // the small fixture's one record
  await page.evaluate((id) => sessionStorage.setItem('trajaudit-harness-state', JSON.stringify({ v: 1, recordId: id, selected: 40 })), recordId);
  await page.reload();
  await page.waitForFunction(() => performance.getEntriesByName('trajaudit/init-done').length > 0, null, { timeout: 30_000 });
  const selected = await page.waitForFunction(() => Number(document.querySelector('.tl-row[aria-selected="true"]')?.dataset.position) === 40, null, { timeout: 10_000 }).then(() => 40, async () => page.evaluate(() => Number(document.querySelector('.tl-row[aria-selected="true"]')?.dataset.position)));
  const askedInit = await page.evaluate(() => window.__posted.some((m) => m.type === 'ready' && !m.embeddedInit));
  check('restored page: the app asks for its view and restores the selection', selected === 40 && askedInit, JSON.stringify({ recordId, selected, askedInit }));
  await context.close();
}

// ── read-only record and host errors ──────────────────────────────────────────────────────
{
  const { page, context } = await open('small', 'light', undefined, '&readonly=' + encodeURIComponent('The file changed on disk'));
  await page.locator('.tl-scroller').focus();
  await press(page, 'J');
  await press(page, 'c');
  check('read-only: no edits are sent and the reason is shown', (await posted(page, 'editAnnotation')).length === 0 && (await page.locator('.annotation .note').textContent()).includes('The file changed on disk'));
  await page.evaluate(() => window.__harness.error('Could not parse line 12: unexpected token'));
  await page.waitForTimeout(80);
  check('host errors show in a banner', (await page.locator('.banner').textContent()).includes('Could not parse line 12'));
  await context.close();
}

check('no page errors', pageErrors.length === 0, pageErrors.slice(0, 5).join(' | '));

await browser.close();
await close();
console.log(`screenshots: ${shots}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
