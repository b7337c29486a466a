// Chart colours of the report webview come from computed --vscode-* values: the parsing and alpha
// handling are pure and tested here (webview/src/report/theme.ts).
import assert from 'node:assert/strict';
import { luminance, parseColor, solid, withAlpha } from '../../../webview/src/report/theme';

describe('score report: theme colours for Chart.js', () => {
  it('parses the colour forms VS Code variables use', () => {
    assert.deepEqual(parseColor('#3794ff'), [55, 148, 255, 1]);
    assert.deepEqual(parseColor('#fff'), [255, 255, 255, 1]);
    assert.deepEqual(parseColor('#d1861680'), [209, 134, 22, 128 / 255]);
    assert.deepEqual(parseColor('rgba(1, 2, 3, 0.5)'), [1, 2, 3, 0.5]);
    assert.deepEqual(parseColor('rgb(1 2 3 / 50%)'), [1, 2, 3, 0.5]);
    assert.equal(parseColor('var(--x)'), undefined);
    assert.equal(parseColor('#12345'), undefined);
  });

  it('chart fills are made opaque first: a theme colour with its own alpha does not wash out', () => {
    assert.equal(solid('#d1861640', 0.8), 'rgba(209, 134, 22, 0.8)');
    assert.equal(withAlpha('#d1861680', 0.5), `rgba(209, 134, 22, ${Math.round((128 / 255) * 0.5 * 1000) / 1000})`);
    assert.equal(solid('transparent'), 'transparent', 'unparseable colours pass through');
  });

  it('relative luminance (WCAG)', () => {
    assert.equal(luminance([255, 255, 255, 1]), 1);
    assert.equal(luminance([0, 0, 0, 1]), 0);
    assert.ok(luminance([55, 148, 255, 1]) > 0.25 && luminance([55, 148, 255, 1]) < 0.35);
  });
});
