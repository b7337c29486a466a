#!/usr/bin/env node
// Benchmark of the trajectory editor's PAGE alone, the part of opening that is ours once VS Code
// has its webview frames (test/bench/editor.mjs measures the whole open in the real workbench,
// where VS Code's own ~220 ms and the machine's drift hide differences of a few ms). It replays,
// in headless Chromium, what VS Code's webview pre/index.html does with the page the extension
// host wrote: parse and re-serialize it with DOMParser (toContentHtml, which also injects the
// acquireVsCodeApi script), document.write it into a hidden frame loaded from an empty page
// (fake.html), make the frame visible on its `load` event. The clock runs from that write task
// to the page's first-contentful-paint (its first rows presented).
//
// Pages for the ~65K-token case (test/bench/editor.mjs's file; its static first screen and the
// embedded view built by the extension's own code, src/extension/editor/firstScreen.ts and
// src/core/view, with the built dist/ files), in the shapes src/extension/webviewPage.ts has had
// or could have behind a static first screen:
//   inlined    the 215 KB bundle in the page as inert text (<script type="text/plain">), run
//              after the first paint: the baseline measured in the same run
//   linked     the bundle linked, fetched and run after the first paint (what the page does now)
//   preloaded  linked, with <link rel="preload"> so the fetch overlaps the first paint
// Trials take turns (order reversed every other round) after a warm-up. First paints come on
// frame boundaries (~16.7 ms), so medians move in steps; compare shapes within one run.
// Usage: node test/bench/editorPage.mjs [--trials 30] [--shapes inlined,linked,preloaded] [--json]
// Prerequisites: npm run build. Chromium: $CHROMIUM or /usr/bin/chromium.
import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { writeSyntheticTrajectory } from '../ui/lib/fixtures.mjs';

const { values: opts } = parseArgs({ options: { trials: { type: 'string', default: '30' }, shapes: { type: 'string', default: 'inlined,linked,preloaded' }, json: { type: 'boolean', default: false } } });
const root = new URL('../..', import.meta.url).pathname;
const dist = join(root, 'dist');
for (const f of ['webview.js', 'webview.css', 'webview-start.js']) {
  if (!existsSync(join(dist, f))) {
    process.stderr.write(`dist/${f} is missing: run npm run build first\n`);
    process.exit(2);
  }
}

// The same file as test/bench/editor.mjs's 65k case (generated here when that bench has not run).
const file = join(process.env.TMPDIR ?? tmpdir(), 'trajaudit-bench-editor-v1', '65k.traj.json');
if (!existsSync(file)) writeSyntheticTrajectory(file, { messages: 75, returnChars: 6_300, reasoningChars: 900, seed: 5 });

const { tsImport } = await import('tsx/esm/api');
const base = pathToFileURL(join(root, 'src', 'x.ts')).href;
const { decodeText } = await tsImport('./core/input/readText.ts', base);
const { loadText } = await tsImport('./core/load/loadFile.ts', base);
const { isTrajectoryRecord } = await tsImport('./core/load/loadRecord.ts', base);
const { buildRecordView, buildRecordList } = await tsImport('./core/view/recordView.ts', base);
const { firstScreenHtml } = await tsImport('./extension/editor/firstScreen.ts', base);
const { deferredStartTag, pageHtml } = await tsImport('./extension/pageHtml.ts', base);

const loaded = loadText(decodeText(readFileSync(file), file), file);
const record = loaded.records.filter(isTrajectoryRecord)[0];
const init = { type: 'init', file: loaded.file, container: loaded.container, records: buildRecordList(loaded, {}), view: buildRecordView(loaded.file, loaded, record, {}, {}) };

/**
 * The page as webviewPage writes it behind a static first screen (src/extension/pageHtml.ts),
 * with the bundle in one of the shapes; `inlined` is how the page was before (the baseline).
 */
function editorPage(shape, origin) {
  const nonce = 'benchbenchbenchbenchbenc';
  const start = readFileSync(join(dist, 'webview-start.js'), 'utf8');
  const bundleUrl = `${origin}/dist/webview.js`;
  const scriptTag = shape === 'inlined'
    ? `<script type="text/plain" id="trajaudit-bundle">${readFileSync(join(dist, 'webview.js'), 'utf8')}</script>\n<script nonce="${nonce}">${start}</script>`
    : `${shape === 'preloaded' ? `<link rel="preload" as="script" href="${bundleUrl}" nonce="${nonce}">\n` : ''}${deferredStartTag(nonce, bundleUrl, start)}`;
  const styleTag = `<style nonce="${nonce}">${readFileSync(join(dist, 'webview.css'), 'utf8')}</style>`;
  return pageHtml({ nonce, cspSource: origin, title: loaded.file, view: 'trajectory', styleTag, scriptTag, firstScreen: firstScreenHtml(init), initJson: JSON.stringify(init) });
}

// The host page: what pre/index.html does with new content (see the header).
const HOST = `<!DOCTYPE html><html><body style="margin:0"><div id="box" style="position:absolute;inset:0 360px 130px 0"></div><script>
window.pages = {};
function toContentHtml(text) {
  const doc = new DOMParser().parseFromString(text, 'text/html');
  doc.querySelectorAll('a').forEach((a) => { if (!a.title && a.getAttribute('href')) a.title = a.getAttribute('href'); });
  doc.body.setAttribute('role', 'document');
  const api = doc.createElement('script');
  api.textContent = 'window.acquireVsCodeApi = () => ({ postMessage() {}, getState() { return undefined; }, setState() {} });';
  doc.head.prepend(api);
  return '<!DOCTYPE html>\\n' + doc.documentElement.outerHTML;
}
window.trial = (name) => new Promise((resolve, reject) => {
  const frame = document.createElement('iframe');
  frame.src = '/fake.html';
  frame.style.cssText = 'display:block;margin:0;border:0;position:absolute;width:100%;height:100%;visibility:hidden';
  document.getElementById('box').appendChild(frame);
  frame.contentWindow.addEventListener('DOMContentLoaded', () => setTimeout(() => {
    const t0 = performance.now();
    const html = toContentHtml(window.pages[name]);
    const reserialized = performance.now();
    const win = frame.contentWindow;
    const doc = frame.contentDocument;
    doc.open(); doc.write(html); doc.close();
    const written = performance.now();
    let loaded;
    const onLoad = () => { loaded = performance.now(); frame.style.visibility = 'visible'; };
    if (doc.readyState === 'complete') onLoad(); else win.addEventListener('load', onLoad);
    const timer = setTimeout(() => reject(new Error('no first-contentful-paint in 5 s')), 5000);
    const observer = new win.PerformanceObserver((list) => {
      const fcp = list.getEntriesByName('first-contentful-paint')[0];
      if (!fcp) return;
      observer.disconnect();
      clearTimeout(timer);
      const at = win.performance.timeOrigin + fcp.startTime - performance.timeOrigin;
      // Let the app start and settle before the next trial.
      setTimeout(() => { frame.remove(); resolve({ reserialize: reserialized - t0, write: written - reserialized, load: loaded - t0, firstRows: at - t0 }); }, 400);
    });
    observer.observe({ type: 'paint', buffered: true });
  }, 0));
});
</script></body></html>`;

const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://127.0.0.1');
  const send = (type, body) => { res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-store' }); res.end(body); };
  if (url.pathname === '/') return send('text/html', HOST);
  if (url.pathname === '/fake.html') return send('text/html', '');
  if (url.pathname === '/dist/webview.js') return send('text/javascript', readFileSync(join(dist, 'webview.js')));
  if (/^\/page\/(inlined|linked|preloaded)$/.test(url.pathname)) return send('text/plain', editorPage(url.pathname.slice(6), `http://127.0.0.1:${server.address().port}`));
  res.writeHead(404);
  res.end();
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));

const shapes = opts.shapes.split(',');
if (!shapes.includes('inlined') || shapes.some((s) => !['inlined', 'linked', 'preloaded'].includes(s))) throw new Error('--shapes: inlined (the baseline) and any of linked, preloaded');
const trials = Number(opts.trials);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium' });
const results = Object.fromEntries(shapes.map((s) => [s, []]));
let pageBytes;
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  pageBytes = await page.evaluate(async (names) => {
    const sizes = {};
    for (const n of names) sizes[n] = (window.pages[n] = await (await fetch(`/page/${n}`)).text()).length;
    return sizes;
  }, shapes);
  for (let i = 0; i < 3; i++) for (const s of shapes) await page.evaluate((n) => window.trial(n), s);
  for (let i = 0; i < trials; i++) for (const s of i % 2 ? [...shapes].reverse() : shapes) results[s].push(await page.evaluate((n) => window.trial(n), s));
} finally {
  await browser.close();
  server.close();
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };
const summary = Object.fromEntries(shapes.map((s) => [s, Object.fromEntries(['reserialize', 'write', 'load', 'firstRows'].map((k) => [k, median(results[s].map((r) => r[k]))]))]));
process.stdout.write(`editor page of the ~65K-token case, ${trials} trials each (medians, ms from VS Code's content task)\n`);
process.stdout.write('shape      page      DOMParser pass  write   load    first rows  × inlined\n');
for (const s of shapes) {
  const m = summary[s];
  process.stdout.write(`${s.padEnd(10)} ${`${Math.round(pageBytes[s] / 1024)} KiB`.padEnd(9)} ${m.reserialize.toFixed(1).padStart(14)}  ${m.write.toFixed(1).padStart(5)}  ${m.load.toFixed(1).padStart(5)}  ${m.firstRows.toFixed(1).padStart(10)}  ${(m.firstRows / summary.inlined.firstRows).toFixed(2).padStart(9)}\n`);
}
if (opts.json || process.env.BENCH_JSON) {
  const rows = shapes.filter((s) => s !== 'inlined').map((s) => ({ figure: `editor page, 65K: content task → first rows presented (${s} bundle)`, target: s === 'linked' ? '≤ inlined' : 'reported', measured: `${summary[s].firstRows.toFixed(1)} ms`, baseline: `${summary.inlined.firstRows.toFixed(1)} ms (inlined)`, ratio: summary[s].firstRows / summary.inlined.firstRows }));
  process.stdout.write(`${JSON.stringify({ bench: 'editorPage', rows, summary, pageBytes })}\n`);
}
