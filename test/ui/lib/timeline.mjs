// The timeline reading the editor benchmark (test/bench/editor.mjs) needs; the workbench tests'
// helpers are in test/workbench/harness/timeline.ts.

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
