// Work that must not compete with the page's first frame: on this kind of machine the frame's
// raster and presentation share the CPU with the main thread, so a task started right after the
// frame was committed delays the moment it reaches the screen (test/bench/editor).

let presented = false;
const waiting: (() => void)[] = [];

function flush(): void {
  if (presented) return;
  presented = true;
  for (const run of waiting.splice(0)) setTimeout(run, 0);
}

try {
  const observer = new PerformanceObserver((list) => {
    if (list.getEntriesByName('first-contentful-paint').length) {
      observer.disconnect();
      flush();
    }
  });
  observer.observe({ type: 'paint', buffered: true });
} catch {
  // No paint timing: the fallback below runs the work.
}

/**
 * Runs `work` in a task after the page's first contentful paint has been presented, or after
 * `fallbackMs` when none comes (a hidden page does not paint).
 */
export function afterFirstContentfulPaint(work: () => void, fallbackMs = 300): void {
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
  waiting.push(once);
  setTimeout(once, fallbackMs);
}
