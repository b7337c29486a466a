// Helpers that read the trajectory editor's webview (webview/src) from inside its frame.
// Selectors are the webview's own: .tl-scroller (listbox), .tl-row[data-position]
// [aria-selected], .ol-item, .search-input / .search-status, .annotation, .audit.

/** Position of the selected timeline row, or null. */
export function selectedPosition(frame) {
  return frame.evaluate(() => {
    const row = document.querySelector('.tl-row[aria-selected="true"]');
    return row ? Number(row.getAttribute('data-position')) : null;
  });
}

/** Whether the row of `position` is mounted and inside the visible part of the timeline. */
export function rowInView(frame, position) {
  return frame.evaluate((p) => {
    const row = document.getElementById(`tl-row-${p}`);
    const scroller = document.querySelector('.tl-scroller');
    if (!row || !scroller) return false;
    const a = row.getBoundingClientRect();
    const b = scroller.getBoundingClientRect();
    return a.height > 0 && a.top >= b.top - 1 && a.top < b.bottom - 8;
  }, position);
}

/** The live timeline's rows currently in the DOM with a non-zero height (not the static first screen's, which have no id). */
export function visibleRowCount(frame) {
  return frame.evaluate(() => [...document.querySelectorAll('.tl-row[id]')].filter((r) => r.getBoundingClientRect().height > 0).length);
}

/** Geometry of the editor page: timeline and panels, and any horizontal overflow. */
export function layoutMetrics(frame) {
  return frame.evaluate(() => {
    const box = (sel) => {
      const e = document.querySelector(sel);
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
export async function clickRow(frame, position) {
  await frame.locator(`#tl-row-${position} .tl-pos`).click();
}

/**
 * Selects `position` through the `g` ("go to a message position") prompt: works for rows that
 * are not mounted (the timeline is virtualized). Focus must be in the webview.
 */
export async function gotoPosition(page, frame, position) {
  await frame.locator('.tl-scroller').focus();
  await page.keyboard.press('g');
  await frame.locator('.goto-input').waitFor({ state: 'visible', timeout: 5000 });
  await page.keyboard.type(String(position));
  await page.keyboard.press('Enter');
}
