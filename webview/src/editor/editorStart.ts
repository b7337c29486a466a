// The trajectory editor's start-up, in one place. The page carries the bundle inline and, as
// inert JSON, the first view (under 256 K characters) or a bigger view's first window, so the app
// draws its first rows in the task that parses the page. Two calls make the contract:
//   beginEditorStart()       when the app is constructed: holds the editor's plain keys, since a
//                            view too big to embed whole comes by message and keys would act on
//                            an empty or partial timeline (keys typed into a field go through);
//   firstViewDrawn(after)    once the first view is in the DOM: replays the held keys in order and
//                            runs `after` (the side panels) once that frame has been presented.
// On this kind of machine the frame's raster and presentation share the CPU with the main thread,
// so work started right after the frame was committed delays the moment it reaches the screen.
import { isTextEntryEvent } from '../common/dom';
import { plainKeyAction } from './shortcutKeys';

export interface EditorStart {
  firstViewDrawn(afterPaint: () => void): void;
}

interface HeldKey {
  key: string;
  code: string;
  shiftKey: boolean;
}

let presented = false;
const waitingForPaint: (() => void)[] = [];

try {
  const observer = new PerformanceObserver((list) => {
    if (!list.getEntriesByName('first-contentful-paint').length) return;
    observer.disconnect();
    presented = true;
    for (const run of waitingForPaint.splice(0)) setTimeout(run, 0);
  });
  observer.observe({ type: 'paint', buffered: true });
} catch {
  // No paint timing: afterPaint's fallback runs the work.
}

/**
 * Runs `work` in a task after the next frame has been presented: the page's first contentful
 * paint when it has not come yet, or after `fallbackMs` when none comes (a hidden page does not paint).
 */
export function afterPaint(work: () => void, fallbackMs = 300): void {
  if (presented) {
    requestAnimationFrame(() => setTimeout(work, 0));
    return;
  }
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    work();
  };
  waitingForPaint.push(once);
  setTimeout(once, fallbackMs);
}

/**
 * Only the editor's own plain keys are held (shortcutKeys.ts): every other key, F1 say, has
 * already gone to VS Code, and a replay would send it again.
 */
function heldKeyOf(ev: KeyboardEvent): HeldKey | undefined {
  if (ev.ctrlKey || ev.metaKey || ev.altKey || isTextEntryEvent(ev) || !plainKeyAction(ev.key)) return undefined;
  return { key: ev.key, code: ev.code, shiftKey: ev.shiftKey };
}

export function beginEditorStart(): EditorStart {
  const held: HeldKey[] = [];
  let drawn = false;
  const hold = (ev: KeyboardEvent) => {
    const key = heldKeyOf(ev);
    if (!key) return;
    held.push(key);
    ev.preventDefault();
    ev.stopImmediatePropagation();
  };
  window.addEventListener('keydown', hold, true);
  return {
    firstViewDrawn(after) {
      if (drawn) return;
      drawn = true;
      window.removeEventListener('keydown', hold, true);
      if (held.length) {
        performance.mark('trajaudit/early-keys', { detail: held.length });
        // In a task of their own, after the first view's selection is in place (the keyboard
        // handler is on the document: the timeline takes focus only after the first paint).
        setTimeout(() => {
          for (const key of held)
            (document.activeElement ?? document.body).dispatchEvent(new KeyboardEvent('keydown', { ...key, bubbles: true, composed: true, cancelable: true }));
        }, 0);
      }
      afterPaint(after);
    },
  };
}
