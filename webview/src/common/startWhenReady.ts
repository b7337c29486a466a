/** Runs `start` on a #root mount once the DOM is parsed (each view's entry uses it). */
export function startWhenReady(start: (mount: HTMLElement) => void): void {
  const run = () => {
    const mount = document.getElementById('root') ?? document.body.appendChild(document.createElement('div'));
    mount.id = 'root';
    start(mount);
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', run, { once: true });
  else run();
}
