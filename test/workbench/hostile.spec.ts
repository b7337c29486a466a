// Hostile content in the real workbench: markup, scripts, javascript:/data: links, SVG, CSS, bidi
// and a 1 MB line in a trajectory (and its sidecar) execute nothing, load nothing and keep the
// layout; a file name that is markup shows as text.
import { join } from 'node:path';
import { test, expect, uiArtifactsDir, VSIX_TAG } from './harness/workbenchTest';
import { activeTab, CSP_VIOLATION, editorFrame, quickOpen } from './harness/workbenchPage';
import { clickRow, expectSelected, gotoPosition, layoutMetrics, openSample } from './harness/timeline';
import { HOSTILE_FILE_NAME, PWNED_FLAG } from './harness/hostile';
import { SAMPLES } from './harness/workspace';

test('d. hostile content (markup, script, javascript:/data: links, SVG, CSS, bidi, 1 MB line) executes nothing and keeps the layout', async ({
  workbench: { page, files, dialogs, log },
}) => {
  test.setTimeout(150_000);
  const { hostile } = files;
  const benign = await layoutMetrics(await openSample(page, SAMPLES.footballer));
  const logStart = log.length;
  const dialogsBefore = dialogs.length;
  const frame = await openSample(page, SAMPLES.hostile, { minRows: 5 });
  const opened = await layoutMetrics(frame);
  // Expand every message (bodies hold the payloads): Enter on each, j to the next one.
  await clickRow(frame, 0);
  for (let p = 0; p < hostile.messageCount; p++) {
    await expectSelected(frame, p);
    await page.keyboard.press('Enter');
    await expect(frame.locator(`#tl-row-${p} .msg-body`)).toBeAttached();
    await page.keyboard.press('j');
  }
  // The 1 MB line in full.
  const big = hostile.positions.bigLine;
  await gotoPosition(page, frame, big);
  await frame.locator(`#tl-row-${big} .msg-more button`, { hasText: 'Show all' }).click();
  await expect(frame.locator(`#tl-row-${big} .msg-more`), 'the whole 1 MB line rendered').toHaveCount(0, { timeout: 20_000 });
  const bigBody = () =>
    frame.evaluate((p) => {
      const body = document.querySelector(`#tl-row-${p} .msg-body`);
      const text = body?.querySelector('.msg-content .msg-text');
      if (!body || !text) return null;
      return {
        h: Math.round(body.getBoundingClientRect().height),
        vh: window.innerHeight,
        sw: text.scrollWidth,
        cw: text.clientWidth,
        len: text.textContent?.length ?? 0,
      };
    }, big);
  // The body is capped at 60% of the webview's height and wraps: no horizontal overflow.
  await expect
    .poll(
      async () => {
        const b = await bigBody();
        return b !== null && b.len > 1_000_000 && b.sw <= b.cw + 1 && b.h <= b.vh * 0.6 + 4;
      },
      { message: 'the 1 MB line fully rendered, wrapped and capped at 60% of the height' },
    )
    .toBe(true);
  const withBigLine = await layoutMetrics(frame);
  // Search for markup (matches are highlighted with <mark> around text) and open the answer trace.
  await page.keyboard.press('/');
  await page.keyboard.type('<img src=x');
  await expect(frame.locator('.search-status')).toHaveText(/match|of/);
  await page.keyboard.press('Enter');
  await frame.locator('.trace-button').click();
  await expect(frame.locator('.trace-button')).toHaveAttribute('aria-pressed', 'true');
  await expect(frame.locator('.trace')).toBeVisible();
  await page.screenshot({ path: join(uiArtifactsDir, 'hostile-dark.png') });

  // 1. Nothing ran: no flag in the workbench or any frame, no dialog.
  const flags: { url: string; v: unknown }[] = [];
  for (const f of page.frames()) {
    const v = await f.evaluate((k) => ({ url: location.href.slice(0, 80), v: (globalThis as Record<string, unknown>)[k] }), PWNED_FLAG).catch(() => null);
    if (v && v.v !== undefined) flags.push(v);
  }
  expect(flags, 'a payload set the global flag').toEqual([]);
  expect(dialogs.slice(dialogsBefore), 'a dialog (alert) fired').toEqual([]);
  // 2. No content became markup.
  const dom = await frame.evaluate((flag) => {
    const all = [...document.querySelectorAll('*')];
    const onAttrs = all.flatMap((e) => [...e.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${e.tagName.toLowerCase()}[${a.name}]`));
    const urlAttrs = all.flatMap((e) =>
      ['href', 'src', 'srcdoc', 'data', 'action', 'formaction', 'xlink:href']
        .filter((n) => e.hasAttribute(n) && e.tagName !== 'SCRIPT' && e.tagName !== 'LINK')
        .map((n) => `${e.tagName.toLowerCase()}[${n}=${(e.getAttribute(n) ?? '').slice(0, 40)}]`),
    );
    // Executable scripts: the bundle (inlined under the nonce, or linked) and VS Code's own;
    // data blocks: only the embedded first message, inert JSON with no raw '<' in it.
    const isData = (x: HTMLScriptElement) => x.type === 'application/json';
    const scripts = [...document.scripts]
      .filter((x) => !isData(x))
      .map((x) =>
        x.src ? `src:${x.src.split('/').pop()}` : `inline:${(x.textContent ?? '').includes(flag) ? 'FLAG ' : ''}${(x.textContent ?? '').slice(0, 60)}`,
      );
    const dataBlocks = [...document.scripts].filter(isData).map((x) => `${x.id}${(x.textContent ?? '').includes('<') ? ' (raw <)' : ''}`);
    // Our stylesheet is inlined under the page's nonce; any other <style> with these rules came from content.
    const nonce = document.querySelector('meta[name="trajaudit-nonce"]')?.getAttribute('content');
    const hostileStyles = [...document.querySelectorAll('style')].filter(
      (s) => s.nonce !== nonce && /display:\s*none|color:\s*red/.test(s.textContent ?? ''),
    ).length;
    return {
      forbidden: document.querySelectorAll('img, iframe, object, embed, video, audio, source, svg, math, details, base, meta[http-equiv="refresh"], form')
        .length,
      anchors: document.querySelectorAll('a[href]').length,
      onAttrs,
      urlAttrs,
      scripts,
      dataBlocks,
      hostileStyles,
      links: [...document.querySelectorAll('link')].map((l) => l.href.split('/').pop()),
      fixed: all.filter((e) => getComputedStyle(e).position === 'fixed' && /OVERLAY/.test(e.textContent ?? '') && e.children.length === 0).length,
      shownAsText: [...document.querySelectorAll('.msg-body')].some((b) => (b.textContent ?? '').includes('<img src=x onerror=')),
      ctrlChars: document.querySelectorAll('.ctrl-char').length,
      marks: document.querySelectorAll('mark.search-hit').length,
    };
  }, PWNED_FLAG);
  expect(dom.forbidden, 'img/iframe/object/embed/svg/... elements exist').toBe(0);
  expect(dom.anchors, '<a href> elements exist').toBe(0);
  expect(dom.onAttrs, 'on* attributes exist').toEqual([]);
  expect(dom.urlAttrs, 'url attributes exist').toEqual([]);
  expect(
    // The inlined bundle and the side panels' bundle it loads after the first paint (webview/src/common/lazyBundle.ts).
    dom.scripts.filter((s) => !(s === 'src:webview.js' || s === 'src:webview-panels.js' || (s.startsWith('inline:') && !s.startsWith('inline:FLAG')))),
    'scripts other than the bundles',
  ).toEqual([]);
  expect(
    dom.dataBlocks.filter((d) => d !== 'trajaudit-init'),
    'data blocks other than the first message',
  ).toEqual([]);
  expect(dom.hostileStyles, 'a <style> from content is in the DOM').toBe(0);
  expect(
    dom.links.filter((l) => l !== 'webview.css'),
    'links other than the stylesheet',
  ).toEqual([]);
  expect(dom.fixed, 'a fixed overlay from content is in the DOM').toBe(0);
  expect(dom.shownAsText, 'the markup in the message bodies is shown as text').toBe(true);
  expect(dom.ctrlChars, 'bidi / zero-width characters are shown as visible escapes').toBeGreaterThan(0);
  expect(dom.marks, 'search matches are highlighted').toBeGreaterThan(0);
  // 3. CSP: nothing tried to load (a violation would mean markup got through somewhere).
  expect(
    log.slice(logStart).filter((l) => CSP_VIOLATION.test(l)),
    'CSP violations were reported',
  ).toEqual([]);
  // 4. The layout holds.
  const after = await layoutMetrics(frame);
  const pageOverflow = await page.evaluate(() => ({
    x: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    y: document.documentElement.scrollHeight - document.documentElement.clientHeight,
  }));
  const width = (m: typeof after) => m.timeline?.width ?? NaN;
  expect(after.bodyVisible, 'the body is hidden').toBe(true);
  expect(
    Math.abs(width(withBigLine) - width(benign)),
    `timeline width ${width(withBigLine)} px with the 1 MB line shown vs ${width(benign)} px for a benign sample`,
  ).toBeLessThanOrEqual(2);
  expect(Math.max(withBigLine.docOverflowX, withBigLine.scrollerOverflowX ?? 0), 'horizontal overflow with the 1 MB line shown').toBeLessThanOrEqual(0);
  expect(Math.abs(width(opened) - width(benign)), `timeline width ${width(opened)} px on open vs ${width(benign)} px for a benign sample`).toBeLessThanOrEqual(
    2,
  );
  expect(
    Math.abs(width(after) - width(benign)),
    `timeline width ${width(after)} px after expanding vs ${width(benign)} px for a benign sample`,
  ).toBeLessThanOrEqual(2);
  expect(after.viewport.width, 'webview width changed').toBe(benign.viewport.width);
  expect(Math.max(after.docOverflowX, after.bodyOverflowX), 'horizontal overflow in the webview').toBeLessThanOrEqual(0);
  expect(after.scrollerOverflowX ?? NaN, 'horizontal overflow in the timeline').toBeLessThanOrEqual(0);
  expect(Math.max(pageOverflow.x, pageOverflow.y), `the workbench page overflows: ${JSON.stringify(pageOverflow)}`).toBeLessThanOrEqual(0);
});

test('d2. a trajectory whose file name is markup opens with the name shown as text', { tag: VSIX_TAG }, async ({ workbench: { page, dialogs } }) => {
  const dialogsBefore = dialogs.length;
  await quickOpen(page, 'onerror alert', 'svg onload', { exact: false });
  const frame = await editorFrame(page);
  expect((await activeTab(page))?.label.split(',')[0].trim(), 'tab label').toBe(HOSTILE_FILE_NAME);
  await expect(page.locator('.tabs-container img, .tabs-container svg'), 'markup in the tab').toHaveCount(0);
  await expect(frame.locator('.app-header-slot'), 'the header shows the name as text').toContainText('<img src=x onerror=alert(1)>');
  expect(await frame.evaluate(() => document.title), 'document title').toContain('<img src=x onerror=alert(1)>');
  expect(await frame.evaluate(() => document.querySelectorAll('img, svg').length)).toBe(0);
  expect(dialogs.slice(dialogsBefore)).toEqual([]);
});
