// Screenshots of the trajectory editor in the dark and light themes (test-artifacts/ui/editor-*.png,
// with close-ups of the timeline, the annotation panel and the audits), and the readability of its
// text: below 3:1 contrast fails, below 4.5:1 (WCAG AA) is reported as a warning.
import { join } from 'node:path';
import { test, expect, uiArtifactsDir } from './harness/workbenchTest';
import { expectWebviewTheme, type Theme } from './harness/workbenchPage';
import { clickRow, expectRowInView, openSample } from './harness/timeline';
import { contrastReport, type ContrastResult } from './harness/contrast';
import { SAMPLES } from './harness/workspace';

/** Per probe name, the worse of two contrast reports. */
function mergeWorst(a: ContrastResult[], b: ContrastResult[]): ContrastResult[] {
  const byName = new Map<string, ContrastResult>();
  for (const r of [...a, ...b]) {
    const seen = byName.get(r.name);
    if (!seen || r.ratio < seen.ratio) byName.set(r.name, r);
  }
  return [...byName.values()];
}

const describeProbe = (r: ContrastResult) => `${r.name} "${r.text}": ${r.ratio.toFixed(2)} (${r.fg} on ${r.bg})`;

for (const [theme, label] of [
  ['dark', 'Default Dark Modern'],
  ['light', 'Default Light Modern'],
] as [Theme, string][]) {
  test.describe(() => {
    test.use({ workbenchTheme: theme });
    test(`f. screenshot in ${label}: the editor follows the theme and its text is readable`, async ({ workbench: { page } }, testInfo) => {
      const frame = await openSample(page, SAMPLES.footballer);
      await expectWebviewTheme(frame, theme);
      // A worked state: the tool return that names Almgren expanded, a search, a selected step.
      await clickRow(frame, 15);
      await page.keyboard.press('Enter');
      await expect(frame.locator('#tl-row-15 .msg-body')).toBeVisible();
      await page.keyboard.press('/');
      await page.keyboard.type('Almgren');
      await expect(frame.locator('.search-status')).toHaveText(/match/);
      await clickRow(frame, 16);
      await expectRowInView(frame, 16);
      await page.screenshot({ path: join(uiArtifactsDir, `editor-${theme}.png`) });
      // Close-ups at full resolution: the timeline and the annotation/audit panel.
      await frame.locator('.panel-center').screenshot({ path: join(uiArtifactsDir, `editor-${theme}-timeline.png`) });
      await frame.locator('.panel-right').screenshot({ path: join(uiArtifactsDir, `editor-${theme}-annotation.png`) });
      const first = await contrastReport(frame);
      // The comparison and audit results further down the right panel.
      const audit = frame.locator('.audit').first();
      await audit.evaluate((el) => el.scrollIntoView());
      await expect(audit).toBeInViewport();
      await frame.locator('.panel-right').screenshot({ path: join(uiArtifactsDir, `editor-${theme}-audits.png`) });
      const report = mergeWorst(first, await contrastReport(frame));
      expect(report.length, 'contrast probes found text').toBeGreaterThan(10);
      const weak = report.filter((r) => r.ratio >= r.min && r.ratio < r.target);
      for (const r of weak) {
        const warning = `${theme}: ${describeProbe(r)} is below ${r.target}:1`;
        testInfo.annotations.push({ type: 'warning', description: warning });
        console.log(`  # warning (${warning})`);
      }
      expect(report.filter((r) => r.ratio < r.min).map(describeProbe), 'text with too little contrast (< 3:1)').toEqual([]);
    });
  });
}
