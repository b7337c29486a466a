import assert from 'node:assert/strict';
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import { pageHtml } from '../../../src/extension/pageHtml';
import { EMBEDDED_INIT_ID } from '../../../src/shared/protocol';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

function elements(node: Node, out: Element[] = []): Element[] {
  if ('tagName' in node) out.push(node);
  if ('childNodes' in node) for (const child of node.childNodes) elements(child, out);
  if ('content' in node && node.content) elements(node.content as unknown as Node, out);
  return out;
}
const attr = (el: Element, name: string) => el.attrs.find((a) => a.name === name)?.value;
const text = (el: Element) => el.childNodes.map((c) => ('value' in c ? c.value : '')).join('');

describe('webview page HTML (pageHtml)', () => {
  const nonce = 'TestNonce0123456789abcd';
  const hostile = '</script><script>window.__pwned=1</script><!--';
  const page = pageHtml({
    nonce,
    cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
    title: `a"><img src=x onerror=alert(1)>.traj.json`,
    view: 'trajectory',
    styleTag: `<style nonce="${nonce}">body{}</style>`,
    scriptTag: `<script nonce="${nonce}">void 0;</script>`,
    initJson: JSON.stringify({ type: 'init', text: hostile }),
  });
  const all = elements(parse(page));

  it('has a strict CSP: nothing by default, scripts by nonce only', () => {
    const csp = all.find((e) => e.tagName === 'meta' && attr(e, 'http-equiv') === 'Content-Security-Policy');
    assert.ok(csp);
    assert.match(attr(csp, 'content') ?? '', /^default-src 'none'; .*script-src 'nonce-TestNonce0123456789abcd'$/);
  });

  it('every script runs only by the nonce; the embedded view is inert JSON that cannot close its element', () => {
    const scripts = all.filter((e) => e.tagName === 'script');
    assert.deepEqual(
      scripts.map((s) => attr(s, 'type') ?? 'js'),
      ['application/json', 'js'],
      'no script escaped from the JSON',
    );
    const [json, bundle] = scripts;
    assert.equal(attr(json, 'id'), EMBEDDED_INIT_ID);
    assert.equal(JSON.parse(text(json)).text, hostile, 'the JSON reads back as it was');
    assert.equal(attr(bundle, 'nonce'), nonce);
    assert.equal(text(bundle), 'void 0;');
    assert.ok(!all.some((e) => e.tagName === 'img'), 'the title made no element');
  });

  it('has an empty #root for the app and the title as text', () => {
    const root = all.find((e) => attr(e, 'id') === 'root');
    assert.ok(root && root.childNodes.length === 0);
    assert.equal(text(all.find((e) => e.tagName === 'title')!), `a"><img src=x onerror=alert(1)>.traj.json`);
  });
});
