// The density strip: a narrow bar beside the timeline with the whole trajectory scaled to its
// height (one equal slice per message). Three lanes: tool activity (search / visit / final
// answer), labels (your critical step and span, gold from the file, audit diagnosis, branch
// proposals, the offline auditor's top suspects, cited steps) and finds (search matches, answer-trace occurrences). Click or drag
// to jump. Colours come from the theme's --vscode-* variables and are re-read on theme change.
import type { Store } from './state';
import { M, type Markers } from './markers';
import { el } from '../common/dom';

interface Palette {
  search: string;
  visit: string;
  final: string;
  critical: string;
  gold: string;
  audit: string;
  branch: string;
  suspect: string;
  cited: string;
  match: string;
  current: string;
  answerPred: string;
  answerGold: string;
  error: string;
  background: string;
}

export const STRIP_LEGEND: { key: keyof Palette; label: string }[] = [
  { key: 'search', label: 'search call' },
  { key: 'visit', label: 'visit call' },
  { key: 'final', label: 'final answer' },
  { key: 'critical', label: 'your critical step / span' },
  { key: 'gold', label: 'gold critical step / span (from file)' },
  { key: 'audit', label: 'audit diagnosis / cited steps' },
  { key: 'branch', label: 'audit branch proposals' },
  { key: 'suspect', label: 'top three suspect steps (offline auditor)' },
  { key: 'match', label: 'search matches' },
  { key: 'answerPred', label: 'predicted answer occurrences' },
  { key: 'answerGold', label: 'gold answer occurrences' },
];

export class DensityStrip {
  readonly root: HTMLElement;
  private readonly canvas: HTMLCanvasElement;
  private readonly viewport: HTMLElement;
  private palette: Palette | null = null;
  private frame = 0;
  private range = { first: 0, last: -1 };
  private dragging = false;
  /** Cached size (read in the ResizeObserver, never during a scroll, to avoid forced layouts). */
  private width = 0;
  private height = 0;

  constructor(
    private readonly store: Store,
    private readonly markers: Markers,
    private readonly jump: (position: number) => void,
  ) {
    this.root = el('div', {
      className: 'density-strip',
      attrs: {
        role: 'img',
        'aria-label': 'Density strip: searches, visits, labels, audit proposals and search matches along the whole trajectory. Click to jump.',
      },
    });
    this.canvas = el('canvas', { className: 'ds-canvas' });
    this.viewport = el('div', { className: 'ds-viewport' });
    this.root.append(this.canvas, this.viewport);
    new ResizeObserver((entries) => {
      const box = entries[0]?.contentRect;
      if (box) {
        this.width = box.width;
        this.height = box.height;
      }
      this.schedule();
    }).observe(this.root);
    // VS Code changes the body class and the --vscode-* variables on theme switches.
    const themeObserver = new MutationObserver(() => {
      this.palette = null;
      this.schedule();
    });
    themeObserver.observe(document.body, { attributes: true, attributeFilter: ['class'] });
    themeObserver.observe(document.documentElement, { attributes: true, attributeFilter: ['style', 'class'] });

    this.root.addEventListener('pointerdown', (ev) => {
      this.dragging = true;
      this.root.setPointerCapture(ev.pointerId);
      this.jumpTo(ev.clientY, true);
    });
    this.root.addEventListener('pointermove', (ev) => {
      if (this.dragging) this.jumpTo(ev.clientY, false);
      else this.updateTitle(ev.clientY);
    });
    const stop = (ev: PointerEvent) => {
      this.dragging = false;
      if (this.root.hasPointerCapture(ev.pointerId)) this.root.releasePointerCapture(ev.pointerId);
    };
    this.root.addEventListener('pointerup', stop);
    this.root.addEventListener('pointercancel', stop);
  }

  setViewport(first: number, last: number): void {
    this.range = { first, last };
    this.placeViewport();
  }

  /**
   * Draws in a task after the next frame, not in it: the strip (its colours read from the computed
   * style, the canvas filled) never delays the frame that brings the timeline's rows, the first
   * one above all; it follows them a frame later.
   */
  schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() =>
      setTimeout(() => {
        this.frame = 0;
        this.draw();
      }, 0),
    );
  }

  private readPalette(): Palette {
    const cs = getComputedStyle(this.root);
    const v = (name: string, fallback: string) => cs.getPropertyValue(name).trim() || fallback;
    const fg = v('--vscode-foreground', cs.color);
    return {
      search: v('--vscode-charts-blue', fg),
      visit: v('--vscode-charts-purple', fg),
      final: v('--vscode-charts-green', fg),
      critical: v('--vscode-charts-red', fg),
      gold: v('--vscode-charts-green', fg),
      audit: v('--vscode-charts-orange', fg),
      branch: v('--vscode-charts-yellow', fg),
      suspect: v('--vscode-charts-orange', fg),
      cited: v('--vscode-charts-orange', fg),
      match: v('--vscode-editorOverviewRuler-findMatchForeground', v('--vscode-charts-yellow', fg)),
      current: v('--vscode-focusBorder', fg),
      answerPred: v('--vscode-charts-red', fg),
      answerGold: v('--vscode-charts-green', fg),
      error: v('--vscode-errorForeground', fg),
      background: v('--vscode-editor-background', 'transparent'),
    };
  }

  draw(): void {
    const rows = this.store.rows;
    const width = this.width;
    const height = this.height;
    if (!width || !height) return;
    const dpr = window.devicePixelRatio || 1;
    if (this.canvas.width !== Math.round(width * dpr) || this.canvas.height !== Math.round(height * dpr)) {
      this.canvas.width = Math.round(width * dpr);
      this.canvas.height = Math.round(height * dpr);
      this.canvas.style.width = `${width}px`;
      this.canvas.style.height = `${height}px`;
    }
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    const n = rows.length;
    if (!n) return;
    const p = (this.palette ??= this.readPalette());
    const slice = height / n;
    const tick = Math.max(2, Math.min(slice, 4));
    const lane = Math.floor(width / 3);
    const laneX = [1, lane + 1, 2 * lane + 1];
    const laneW = lane - 1;
    const flags = this.markers.flags;
    const y = (i: number) => Math.min(height - tick, i * slice);
    const band = (flag: number, color: string, x: number, w: number) => {
      let start = -1;
      ctx.fillStyle = color;
      for (let i = 0; i <= n; i++) {
        const on = i < n && (flags[i] & flag) !== 0;
        if (on && start < 0) start = i;
        if (!on && start >= 0) {
          ctx.fillRect(x, y(start), w, Math.max(tick, (i - start) * slice));
          start = -1;
        }
      }
    };
    const ticks = (flag: number, color: string, x: number, w: number, h = tick) => {
      ctx.fillStyle = color;
      for (let i = 0; i < n; i++) if (flags[i] & flag) ctx.fillRect(x, y(i), w, h);
    };

    // Lane 1: tool activity (translucent when rows are denser than pixels, so density shows).
    ctx.globalAlpha = slice < 1 ? 0.45 : 1;
    ticks(M.SEARCH, p.search, laneX[0], laneW);
    ticks(M.VISIT, p.visit, laneX[0], laneW);
    ctx.globalAlpha = 1;
    ticks(M.ERROR, p.error, laneX[0], laneW);
    // Lane 2: labels. Spans as translucent bands, steps as solid ticks.
    ctx.globalAlpha = 0.35;
    band(M.GOLD_SPAN, p.gold, laneX[1], laneW);
    band(M.SPAN, p.critical, laneX[1], laneW);
    ctx.globalAlpha = 0.7;
    ticks(M.CITED, p.cited, laneX[1], laneW);
    ticks(M.SUSPECT, p.suspect, laneX[1], laneW, Math.max(tick, 3));
    ctx.globalAlpha = 1;
    ticks(M.BRANCH, p.branch, laneX[1], laneW, Math.max(tick, 3));
    ticks(M.AUDIT, p.audit, laneX[1], laneW, Math.max(tick, 3));
    ticks(M.GOLD_CRITICAL, p.gold, laneX[1], laneW, Math.max(tick, 3));
    ticks(M.CRITICAL, p.critical, laneX[1], laneW, Math.max(tick, 4));
    // Lane 3: finds.
    ticks(M.MATCH, p.match, laneX[2], laneW);
    ticks(M.ANSWER_GOLD, p.answerGold, laneX[2], laneW);
    ticks(M.ANSWER_PRED, p.answerPred, laneX[2], laneW);
    ticks(M.CURRENT_MATCH, p.current, 0, width, 2);
    // The final answer spans the full width.
    ticks(M.FINAL, p.final, 0, width, Math.max(2, Math.min(tick, 3)));
    this.placeViewport();
  }

  private placeViewport(): void {
    const n = this.store.rows.length;
    const height = this.height;
    if (!n || !height || this.range.last < this.range.first) {
      this.viewport.hidden = true;
      return;
    }
    this.viewport.hidden = false;
    const top = (this.range.first / n) * height;
    const h = Math.max(6, ((this.range.last - this.range.first + 1) / n) * height);
    this.viewport.style.top = `${top}px`;
    this.viewport.style.height = `${Math.min(h, height - top)}px`;
  }

  private indexAtY(clientY: number): number {
    const rect = this.root.getBoundingClientRect();
    const n = this.store.rows.length;
    const frac = Math.max(0, Math.min(0.9999, (clientY - rect.top) / rect.height));
    return Math.floor(frac * n);
  }

  private jumpTo(clientY: number, snap: boolean): void {
    const rows = this.store.rows;
    if (!rows.length) return;
    let index = this.indexAtY(clientY);
    if (snap) {
      // Snap to a marked row within 4 px, so thin marks are easy to hit.
      const rect = this.root.getBoundingClientRect();
      const perPx = rows.length / rect.height;
      const reach = Math.ceil(perPx * 4);
      const important = M.CRITICAL | M.GOLD_CRITICAL | M.AUDIT | M.BRANCH | M.SUSPECT | M.CURRENT_MATCH | M.MATCH | M.ANSWER_PRED | M.ANSWER_GOLD | M.FINAL;
      let best = -1;
      for (let d = 0; d <= reach && best < 0; d++) {
        for (const k of [index - d, index + d])
          if (k >= 0 && k < rows.length && this.markers.flags[k] & important) {
            best = k;
            break;
          }
      }
      if (best >= 0) index = best;
    }
    this.jump(rows[index].position);
  }

  private updateTitle(clientY: number): void {
    const rows = this.store.rows;
    if (!rows.length) return;
    const index = this.indexAtY(clientY);
    const row = rows[index];
    const notes = (this.markers.notes.get(index) ?? []).map((x) => x.text);
    const f = this.markers.flags[index];
    if (f & M.MATCH) notes.push('search match');
    if (f & M.SEARCH) notes.push('search call');
    if (f & M.VISIT) notes.push('visit call');
    if (f & M.FINAL) notes.push('final answer');
    this.root.title = `Message ${row.position} (${row.agent ?? row.role})${notes.length ? '\n' + notes.join('\n') : ''}`;
  }
}
