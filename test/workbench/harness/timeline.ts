// Reading and driving the trajectory editor's webview (webview/src/editor) from inside its frame.
// Selectors are the webview's own: .tl-scroller (listbox), .tl-row[data-position][aria-selected],
// .ol-item, .search-input / .search-status, .annotation, .audit.
import { expect, type Frame, type Page } from '@playwright/test';
import { editorFrame, quickOpen } from './workbenchPage';

/** Position of the selected timeline row, or null. */
export function selectedPosition(frame: Frame): Promise<number | null> {
  return frame.evaluate(() => {
    const row = document.querySelector('.tl-row[aria-selected="true"]');
    return row ? Number(row.getAttribute('data-position')) : null;
  });
}

export async function expectSelected(frame: Frame, position: number, message = `row ${position} selected`): Promise<void> {
  await expect.poll(() => selectedPosition(frame), { message }).toBe(position);
}

/** Whether the row of `position` is mounted and inside the visible part of the timeline. */
export function rowInView(frame: Frame, position: number): Promise<boolean> {
  return frame.evaluate((p) => {
    const row = document.getElementById(`tl-row-${p}`);
    const scroller = document.querySelector('.tl-scroller');
    if (!row || !scroller) return false;
    const a = row.getBoundingClientRect();
    const b = scroller.getBoundingClientRect();
    return a.height > 0 && a.top >= b.top - 1 && a.top < b.bottom - 8;
  }, position);
}

export async function expectRowInView(frame: Frame, position: number): Promise<void> {
  await expect.poll(() => rowInView(frame, position), { message: `row ${position} scrolled into view` }).toBe(true);
}

/** The live timeline's rows in the DOM with a non-zero height (not the static first screen's, which have no id). */
export function visibleRowCount(frame: Frame): Promise<number> {
  return frame.evaluate(() => [...document.querySelectorAll('.tl-row[id]')].filter((r) => r.getBoundingClientRect().height > 0).length);
}

interface Box {
  x: number;
  width: number;
  height: number;
}

export interface LayoutMetrics {
  viewport: { width: number; height: number };
  timeline: Box | null;
  scroller: Box | null;
  left: Box | null;
  right: Box | null;
  header: Box | null;
  docOverflowX: number;
  bodyOverflowX: number;
  scrollerOverflowX: number | null;
  bodyVisible: boolean;
}

/** Geometry of the editor page: timeline and panels, and any horizontal overflow. */
export function layoutMetrics(frame: Frame): Promise<LayoutMetrics> {
  return frame.evaluate(() => {
    const box = (selector: string) => {
      const e = document.querySelector(selector);
      if (!e) return null;
      const r = e.getBoundingClientRect();
      return { x: Math.round(r.x), width: Math.round(r.width), height: Math.round(r.height) };
    };
    const doc = document.documentElement;
    const scroller = document.querySelector('.tl-scroller');
    return {
      viewport: { width: window.innerWidth, height: window.innerHeight },
      timeline: box('.timeline'),
      scroller: box('.tl-scroller'),
      left: box('.panel-left'),
      right: box('.panel-right'),
      header: box('.app-header-slot'),
      docOverflowX: doc.scrollWidth - doc.clientWidth,
      bodyOverflowX: document.body.scrollWidth - document.body.clientWidth,
      scrollerOverflowX: scroller ? scroller.scrollWidth - scroller.clientWidth : null,
      bodyVisible: getComputedStyle(document.body).display !== 'none' && getComputedStyle(document.body).visibility !== 'hidden',
    };
  });
}

/** Clicks the row of `position` (on its position number), which selects it and focuses the timeline. */
export async function clickRow(frame: Frame, position: number): Promise<void> {
  await frame.locator(`#tl-row-${position} .tl-pos`).click();
  await expectSelected(frame, position, `row ${position} selected by the click`);
}

/**
 * Selects `position` through the `g` ("go to a message position") prompt: works for rows that
 * are not mounted (the timeline is virtualized).
 */
export async function gotoPosition(page: Page, frame: Frame, position: number): Promise<void> {
  await frame.locator('.tl-scroller').focus();
  await page.keyboard.press('g');
  await expect(frame.locator('.goto-input')).toBeVisible();
  await page.keyboard.type(String(position));
  await page.keyboard.press('Enter');
  await expectSelected(frame, position, `row ${position} selected with g`);
}

/** Opens `sample` through Quick Open; returns the editor's frame once `minRows` rows show. */
export async function openSample(page: Page, sample: { name: string }, { minRows = 8 } = {}): Promise<Frame> {
  await quickOpen(page, sample.name);
  const frame = await editorFrame(page);
  await expect.poll(() => visibleRowCount(frame), { message: `${minRows} visible timeline rows` }).toBeGreaterThanOrEqual(minRows);
  return frame;
}
