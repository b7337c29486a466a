// The timeline's speed in Chromium against the fake host (npm run bench:timeline, which runs this
// file as the Playwright project `webview-bench` and prints the table; not part of npm test: the
// guide wants speed measured by a bench with a baseline from the same run, not by timed tests).
// Figures, each against a baseline measured in the same run:
//   first rows of a 5,000-message view after its init  vs  the 80-message view's
//   wheel-like scrolling (120 px a frame), median frame and long tasks  vs  idle frames
//   jumps across the file (1/60 of it a frame), p95 frame  vs  idle frames
//   expanding a 1 MB single-line tool return  vs  expanding a short one
import { writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, press, test } from '../../browser/webview/editorTest';

test.describe.configure({ mode: 'serial' });

export interface TimelineFigure {
  figure: string;
  target: string;
  /** Milliseconds (or a count, for long tasks). */
  measured: number;
  baseline: number;
  /** What the baseline is. */
  baselineOf: string;
  /** The target as a bound on `measured`, for the exit code. */
  limit?: number;
  unit?: 'ms' | 'count';
}

const figures: TimelineFigure[] = [];
const RUNS = Number(process.env.TRAJAUDIT_BENCH_RUNS ?? 5);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

test.afterAll(() => {
  const out = process.env.TRAJAUDIT_BENCH_OUT;
  if (out) writeFileSync(out, JSON.stringify(figures));
});

/** From the fake host posting `init` to the first row in the DOM (pageHost.ts stamps both). */
async function firstRowsAfterInit(page: Page): Promise<number> {
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __harnessTimings: { firstRowAt?: number } }).__harnessTimings.firstRowAt !== undefined))
    .toBe(true);
  const t = await page.evaluate(() => (window as unknown as { __harnessTimings: { initSentAt: number; firstRowAt: number } }).__harnessTimings);
  return t.firstRowAt - t.initSentAt;
}

test('first rows after init: 5,000 messages against 80', async ({ openEditor }) => {
  const large: number[] = [];
  const small: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    for (const [fixture, into] of [
      ['small', small],
      ['large', large],
    ] as const) {
      const { page, context } = await openEditor(fixture);
      into.push(await firstRowsAfterInit(page));
      await context.close();
    }
  }
  figures.push({
    figure: `first rows after init, 5,000 messages, median of ${RUNS}`,
    target: '< 1000 ms',
    measured: median(large),
    baseline: median(small),
    baselineOf: 'the 80-message view',
    limit: 1000,
  });
});

/** Frame times over 120 frames: idle, by 120 px a frame (wheel) or by 1/60 of the file (jump). */
function frameStats(page: Page, mode: 'idle' | 'wheel' | 'jump') {
  return page.evaluate(async (m) => {
    const long: number[] = [];
    const observer = new PerformanceObserver((list) => long.push(...list.getEntries().map((e) => e.duration)));
    observer.observe({ type: 'longtask', buffered: false });
    const s = document.querySelector('.tl-scroller')!;
    s.scrollTop = s.scrollHeight / 3;
    await new Promise((r) => requestAnimationFrame(r));
    const frames: number[] = [];
    let last = performance.now();
    for (let i = 0; i < 120; i++) {
      if (m === 'wheel') s.scrollTop += 120;
      else if (m === 'jump') s.scrollTop = (s.scrollHeight * (i % 60)) / 60;
      await new Promise((r) => requestAnimationFrame(r));
      const now = performance.now();
      frames.push(now - last);
      last = now;
    }
    // Long tasks are reported after they end: one more frame lets the last one in.
    await new Promise((r) => requestAnimationFrame(r));
    observer.disconnect();
    frames.sort((a, b) => a - b);
    return { median: frames[frames.length >> 1], p95: frames[Math.floor(frames.length * 0.95)], longTasks: long.length };
  }, mode);
}

test('scrolling 5,000 rows: wheel and jumps against idle frames', async ({ openEditor }) => {
  const { page } = await openEditor('large');
  const idle = await frameStats(page, 'idle');
  const wheel = await frameStats(page, 'wheel');
  const jumps = await frameStats(page, 'jump');
  figures.push(
    {
      figure: 'wheel-like scrolling, 5,000 rows: median frame',
      target: '< 25 ms',
      measured: wheel.median,
      baseline: idle.median,
      baselineOf: 'idle frames',
      limit: 25,
    },
    {
      figure: 'wheel-like scrolling, 5,000 rows: long tasks in 120 frames',
      target: '≤ 2',
      measured: wheel.longTasks,
      baseline: idle.longTasks,
      baselineOf: 'idle frames',
      limit: 2,
      unit: 'count',
    },
    { figure: 'jumps across 5,000 rows: p95 frame', target: '< 120 ms', measured: jumps.p95, baseline: idle.p95, baselineOf: 'idle frames', limit: 120 },
  );
});

/** Enter on the selected row expands it; the time until its body's text shows. */
async function expandSelected(page: Page): Promise<number> {
  const position = Number(await page.locator('.tl-row[aria-selected="true"]').getAttribute('data-position'));
  await page.locator('.tl-scroller').focus();
  const started = Date.now();
  await press(page, 'Enter');
  await expect(page.locator(`#tl-row-${position}[aria-expanded="true"] .msg-text`).first()).toBeVisible();
  return Date.now() - started;
}

test('expanding a 1 MB tool return against a short one', async ({ openEditor }) => {
  const big: number[] = [];
  const short: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const { page, context } = await openEditor('large');
    await page.locator('.tl-scroller').focus();
    await press(page, '/');
    await page.keyboard.type('needle!!');
    await page.keyboard.press('Enter');
    await expect(page.locator('.search-status')).toHaveText('1 of 3');
    big.push(await expandSelected(page));
    await context.close();
    const small = await openEditor('small');
    await small.page.locator('.tl-scroller').focus();
    await press(small.page, 'j');
    short.push(await expandSelected(small.page));
    await small.context.close();
  }
  figures.push({
    figure: `expanding a 1 MB single-line tool return, median of ${RUNS}`,
    target: '< 1500 ms',
    measured: median(big),
    baseline: median(short),
    baselineOf: 'a short message',
    limit: 1500,
  });
});
