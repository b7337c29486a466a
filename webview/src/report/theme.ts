// Chart colours from the theme: Chart.js draws on canvas, so it cannot use CSS variables directly;
// the computed values of the --vscode-* variables are read here and re-read when the theme changes.

export interface ChartTheme {
  kind: 'light' | 'dark' | 'hc-dark' | 'hc-light';
  foreground: string;
  muted: string;
  grid: string;
  background: string;
  focus: string;
  hoverBackground: string;
  hoverForeground: string;
  hoverBorder: string;
  /** blue, orange, green, purple, red, yellow */
  palette: string[];
  font: string;
  fontSize: number;
}

function cssVar(style: CSSStyleDeclaration, name: string, fallback: string): string {
  const v = style.getPropertyValue(name).trim();
  return v || fallback;
}

export function themeKind(body: HTMLElement = document.body): ChartTheme['kind'] {
  const c = body.classList;
  if (c.contains('vscode-high-contrast-light')) return 'hc-light';
  if (c.contains('vscode-high-contrast')) return 'hc-dark';
  if (c.contains('vscode-light')) return 'light';
  if (c.contains('vscode-dark')) return 'dark';
  // Outside VS Code (harness): guess from the background's lightness.
  return luminance(parseColor(getComputedStyle(body).backgroundColor) ?? [255, 255, 255, 1]) > 0.5 ? 'light' : 'dark';
}

export function readTheme(): ChartTheme {
  // VS Code sets the variables on <html>; read them where they are defined.
  const style = getComputedStyle(document.documentElement);
  const kind = themeKind();
  const dark = kind === 'dark' || kind === 'hc-dark';
  const foreground = cssVar(style, '--vscode-editor-foreground', cssVar(style, '--vscode-foreground', dark ? '#cccccc' : '#333333'));
  return {
    kind,
    foreground,
    muted: cssVar(style, '--vscode-descriptionForeground', foreground),
    grid: cssVar(style, '--vscode-charts-lines', dark ? '#cccccc40' : '#33333333'),
    background: cssVar(style, '--vscode-editor-background', dark ? '#1f1f1f' : '#ffffff'),
    focus: cssVar(style, '--vscode-focusBorder', '#0078d4'),
    hoverBackground: cssVar(style, '--vscode-editorHoverWidget-background', cssVar(style, '--vscode-editorWidget-background', dark ? '#252526' : '#f3f3f3')),
    hoverForeground: cssVar(style, '--vscode-editorHoverWidget-foreground', foreground),
    hoverBorder: cssVar(style, '--vscode-editorHoverWidget-border', cssVar(style, '--vscode-editorWidget-border', '#454545')),
    palette: [
      cssVar(style, '--vscode-charts-blue', '#3794ff'),
      cssVar(style, '--vscode-charts-orange', '#d18616'),
      cssVar(style, '--vscode-charts-green', '#89d185'),
      cssVar(style, '--vscode-charts-purple', '#b180d7'),
      cssVar(style, '--vscode-charts-red', '#f14c4c'),
      cssVar(style, '--vscode-charts-yellow', '#cca700'),
    ],
    font: cssVar(style, '--vscode-font-family', 'system-ui, sans-serif'),
    fontSize: 12,
  };
}

/** [r, g, b, a] of a #rgb/#rgba/#rrggbb/#rrggbbaa or rgb()/rgba() colour; undefined otherwise. */
export function parseColor(color: string): [number, number, number, number] | undefined {
  const c = color.trim();
  let m = /^#([0-9a-f]{3,8})$/i.exec(c);
  if (m) {
    let h = m[1];
    if (h.length === 3 || h.length === 4) h = [...h].map((x) => x + x).join('');
    if (h.length !== 6 && h.length !== 8) return undefined;
    const n = (i: number) => parseInt(h.slice(i, i + 2), 16);
    return [n(0), n(2), n(4), h.length === 8 ? n(6) / 255 : 1];
  }
  m = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:[\s,/]+([\d.]+%?))?\s*\)$/i.exec(c);
  if (m) {
    const a = m[4] === undefined ? 1 : m[4].endsWith('%') ? parseFloat(m[4]) / 100 : parseFloat(m[4]);
    return [Number(m[1]), Number(m[2]), Number(m[3]), a];
  }
  return undefined;
}

/** The colour made opaque, then given `alpha` (theme chart colours can carry their own alpha). */
export function solid(color: string, alpha = 1): string {
  const p = parseColor(color);
  if (!p) return color;
  return `rgba(${p[0]}, ${p[1]}, ${p[2]}, ${alpha})`;
}

/** The colour with its alpha multiplied by `alpha` (unparseable colours are returned as they are). */
export function withAlpha(color: string, alpha: number): string {
  const p = parseColor(color);
  if (!p) return color;
  return `rgba(${p[0]}, ${p[1]}, ${p[2]}, ${Math.round(p[3] * alpha * 1000) / 1000})`;
}

export function luminance([r, g, b]: [number, number, number, number]): number {
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** Calls `onChange` (debounced) when VS Code switches theme: body class or the variables on <html> change. */
export function watchTheme(onChange: () => void): () => void {
  let timer = 0;
  const fire = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(onChange, 50);
  };
  const observer = new MutationObserver(fire);
  observer.observe(document.body, { attributes: true, attributeFilter: ['class', 'data-vscode-theme-kind', 'data-vscode-theme-id'] });
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['style', 'class'] });
  return () => observer.disconnect();
}
