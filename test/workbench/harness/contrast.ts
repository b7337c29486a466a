// A readability probe for screenshots: WCAG contrast ratios of sample text in the editor's
// webview (rows, calls, header, outline, annotation panel, search hits, badges...). Each
// element's text colour is compared with its effective background (the first opaque
// ancestor background, translucent layers blended on top). Decorative marks are not probed.
import type { Frame } from '@playwright/test';

/**
 * Elements to probe: [name, selector, target ratio, hard minimum = 3]. The target is 4.5 (WCAG
 * AA body text) or 3 (secondary text, badges); below the hard minimum text counts as unreadable.
 */
export type Probe = [name: string, selector: string, target: number, hard?: number];

export const PROBES: Probe[] = [
  ['header file name', '.app-header-slot h1, .app-header-slot .hdr-file', 4.5],
  ['header query', '.hdr-query', 4.5],
  ['header stats', '.hdr-stats', 3],
  ['row position', '.tl-row:not(.is-selected) .tl-pos', 3],
  ['row role', '.tl-row:not(.is-selected) .tl-role', 3],
  ['row tool call', '.tl-row:not(.is-selected) .tl-call', 4.5],
  ['row headline', '.tl-row:not(.is-selected) .tl-headline', 4.5],
  ['row preview', '.tl-row:not(.is-selected) .tl-preview:not(.muted)', 4.5],
  ['row tokens', '.tl-row:not(.is-selected) .tl-tokens', 3],
  ['selected row call/headline', '.tl-row.is-selected .tl-call, .tl-row.is-selected .tl-headline', 4.5],
  ['selected row preview', '.tl-row.is-selected .tl-preview', 4.5],
  ['search match row preview', '.tl-row.is-match:not(.is-selected) .tl-preview', 4.5],
  ['critical row text', '.tl-row.is-critical .tl-call, .tl-row.is-critical .tl-headline', 4.5],
  ['span row text', '.tl-row.in-span:not(.is-selected) .tl-preview', 4.5],
  ['message body text', '.msg-body .msg-text span', 4.5],
  ['message section title', '.msg-section-title', 3],
  ['search hit', 'mark.search-hit', 4.5],
  ['search status', '.search-status', 3],
  ['column header', '.tl-colhead span', 3],
  ['critical badge (★)', '.tl-row .mk-critical', 3],
  ['gold badge (G)', '.tl-row .mk-gold', 3],
  ['audit badge (A)', '.tl-row .mk-audit', 3],
  ['branch badge (H/B/F)', '.tl-row .mk-branch', 3],
  ['audit-cited marker (·)', '.tl-row .mk-cited', 3],
  ['answer-trace marker', '.tl-row .mk-answer-pred, .tl-row .mk-answer-gold', 3],
  ['outline badge', '.ol-badges .mk', 3],
  ['role label', '.tl-role', 3],
  ['pill', '.pill', 3, 2.5],
  ['outline calls', '.ol-item:not(.is-current) .ol-calls', 4.5],
  ['outline preview', '.ol-item:not(.is-current) .ol-preview', 3],
  ['outline current', '.ol-item.is-current .ol-calls', 4.5],
  ['section heading', '.section-head h2', 3],
  ['annotation label', '.annotation label, .annotation .field-label', 3],
  ['root cause option', '.cause-opt', 4.5],
  ['root cause chosen', '.cause-opt[aria-checked="true"]', 4.5],
  ['root cause definition', '.cause-def', 4.5],
  ['audit text', '.audit p, .audit li, .audit-diag', 4.5],
  ['step chip', '.step-chip', 3],
  ['audit chip', '.chip-audit', 3],
  ['gold chip', '.chip-gold', 3],
  ['status line', '.statusline', 3],
];

export interface ContrastResult {
  name: string;
  ratio: number;
  min: number;
  target: number;
  fg: string;
  bg: string;
  text: string;
}

export async function contrastReport(frame: Frame, probes: Probe[] = PROBES): Promise<ContrastResult[]> {
  return frame.evaluate((list) => {
    type Rgba = [number, number, number, number];
    const parse = (c: string): Rgba | null => {
      let m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)/.exec(c);
      if (m) return [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])];
      m = /color\(srgb ([\d.e-]+) ([\d.e-]+) ([\d.e-]+)(?: \/ ([\d.e-]+))?\)/.exec(c);
      if (m) return [Number(m[1]) * 255, Number(m[2]) * 255, Number(m[3]) * 255, m[4] === undefined ? 1 : Number(m[4])];
      return null;
    };
    const blend = (top: Rgba, bottom: Rgba): Rgba => {
      const a = top[3];
      return [top[0] * a + bottom[0] * (1 - a), top[1] * a + bottom[1] * (1 - a), top[2] * a + bottom[2] * (1 - a), 1];
    };
    const lum = ([r, g, b]: Rgba): number => {
      const f = (v: number): number => {
        v /= 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const background = (el: Element): Rgba => {
      const layers: Rgba[] = [];
      for (let e: Element | null = el; e; e = e.parentElement) {
        const c = parse(getComputedStyle(e).backgroundColor);
        if (c && c[3] > 0) {
          layers.push(c);
          if (c[3] >= 1) break;
        }
      }
      let bg: Rgba = [255, 255, 255, 1];
      const rootBg = parse(getComputedStyle(document.body).backgroundColor);
      if (rootBg && rootBg[3] >= 1) bg = rootBg;
      for (const layer of layers.reverse()) bg = layer[3] >= 1 ? layer : blend(layer, bg);
      return bg;
    };
    const hex = (c: Rgba): string =>
      `#${c
        .slice(0, 3)
        .map((v) => Math.round(v).toString(16).padStart(2, '0'))
        .join('')}`;
    const out: { name: string; ratio: number; min: number; target: number; fg: string; bg: string; text: string }[] = [];
    for (const [name, selector, target, hard = 3] of list) {
      const min = Math.min(hard, target);
      const els = [...document.querySelectorAll(selector)]
        .filter((e) => {
          const r = e.getBoundingClientRect();
          return r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight && (e.textContent ?? '').trim() !== '';
        })
        .slice(0, 6);
      let worst: (typeof out)[number] | null = null;
      for (const e of els) {
        const style = getComputedStyle(e);
        let fg = parse(style.color);
        if (!fg) continue;
        const bg = background(e);
        const opacity = Number(style.opacity);
        if (fg[3] < 1) fg = blend(fg, bg);
        if (opacity < 1) fg = blend([fg[0], fg[1], fg[2], opacity], bg);
        const [l1, l2] = [lum(fg), lum(bg)].sort((a, b) => b - a);
        const ratio = (l1 + 0.05) / (l2 + 0.05);
        if (!worst || ratio < worst.ratio) worst = { name, ratio, min, target, fg: hex(fg), bg: hex(bg), text: (e.textContent ?? '').trim().slice(0, 30) };
      }
      if (worst) out.push(worst);
    }
    return out;
  }, probes);
}
