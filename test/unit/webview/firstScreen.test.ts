import assert from 'node:assert/strict';
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import { loadText } from '../../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../../src/core/load/loadRecord';
import { buildRecordList, buildRecordView } from '../../../src/core/view/recordView';
import { escapeHtml, firstScreenHtml } from '../../../src/extension/editor/firstScreen';
import type { ToWebview } from '../../../src/shared/protocol';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

const HOSTILE = [
  '<img src=x onerror="window.__pwned=1">',
  '<script>window.__pwned=1</script>',
  '<a href="javascript:window.__pwned=1">x</a>',
  '"><svg onload=alert(1)>',
  "' onmouseover='alert(1)",
  '</div></main><iframe srcdoc="<script>1</script>">',
  'a\u202Eevil\u200Bzero',
];

function initFor(value: unknown): Extract<ToWebview, { type: 'init' }> {
  const loaded = loadText(JSON.stringify(value), 'hostile.traj.json');
  const record = loaded.records.filter(isTrajectoryRecord)[0];
  const view = buildRecordView(loaded.file, loaded, record, undefined, {});
  return { type: 'init', file: loaded.file, container: loaded.container, records: buildRecordList(loaded, {}), view };
}

function elements(node: Node, out: Element[] = []): Element[] {
  if ('tagName' in node) out.push(node);
  if ('childNodes' in node) for (const child of node.childNodes) elements(child as Node, out);
  return out;
}

function textOf(node: Node): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value;
  return 'childNodes' in node ? node.childNodes.map((c) => textOf(c as Node)).join('') : '';
}

const hostileTrajectory = {
  query: `Who wrote it? ${HOSTILE.join(' ')}`,
  predicted_answer: HOSTILE[0],
  gold_answer: HOSTILE[1],
  trajectory: [
    { role: 'user', content: HOSTILE.join('\n') },
    { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: JSON.stringify({ query: [HOSTILE[3], HOSTILE[4]] }) } }] },
    { role: 'tool', tool_call_id: 'c1', content: HOSTILE.join(' | ') },
    ...Array.from({ length: 200 }, (_, i) => ({ role: i % 2 ? 'tool' : 'assistant', content: `step ${i} ${HOSTILE[i % HOSTILE.length]}` })),
    { role: 'assistant', content: HOSTILE[2] },
  ],
};

describe('the editor first screen (static HTML written by the host)', () => {
  const init = initFor(hostileTrajectory);
  const html = firstScreenHtml(init);
  const doc = parse(`<!DOCTYPE html><html><body><div id="root">${html}</div></body></html>`);
  const all = elements(doc as unknown as Node);

  it('turns no trajectory text into markup: only its own elements and attributes', () => {
    const allowedTags = new Set(['html', 'head', 'body', 'div', 'span', 'header', 'h1', 'button', 'dl', 'dt', 'dd', 'nav', 'main', 'aside']);
    const allowedAttrs = new Set(['id', 'class', 'role', 'title', 'type', 'tabindex', 'data-position', 'aria-label', 'aria-busy', 'aria-hidden', 'aria-expanded', 'aria-pressed', 'aria-selected', 'aria-posinset', 'aria-setsize']);
    for (const element of all) {
      assert.ok(allowedTags.has(element.tagName), `unexpected <${element.tagName}>`);
      for (const attr of element.attrs) assert.ok(allowedAttrs.has(attr.name), `unexpected attribute ${attr.name} on <${element.tagName}>`);
    }
    // The hostile strings are there, as text.
    const text = textOf(doc as unknown as Node);
    assert.ok(text.includes('<img src=x onerror="window.__pwned=1">'));
    assert.ok(text.includes('<script>window.__pwned=1</script>'));
  });

  it('shows invisible and bidi characters as visible escapes, like the webview', () => {
    const text = textOf(doc as unknown as Node);
    assert.ok(text.includes('a⟦RLO⟧evil⟦ZWSP⟧zero'));
    assert.ok(!text.includes('\u202E'));
  });

  it('writes the header and the first rows in the webview classes, the first row selected', () => {
    const byClass = (c: string) => all.filter((e) => e.attrs.some((a) => a.name === 'class' && a.value.split(' ').includes(c)));
    assert.equal(byClass('first-screen').length, 1);
    assert.equal(byClass('hdr-file')[0] && textOf(byClass('hdr-file')[0]), 'hostile.traj.json');
    const rows = byClass('tl-row');
    assert.ok(rows.length >= 18 && rows.length < init.view.rows.length, `${rows.length} rows of ${init.view.rows.length}`);
    const attr = (e: Element, name: string) => e.attrs.find((a) => a.name === name)?.value;
    assert.equal(attr(rows[0], 'data-position'), '0');
    assert.match(attr(rows[0], 'class') ?? '', /\bis-selected\b/);
    assert.doesNotMatch(attr(rows[1], 'class') ?? '', /\bis-selected\b/);
    assert.equal(all.filter((e) => attr(e, 'id')?.startsWith('tl-row-')).length, 0, 'no ids the live rows use');
    assert.equal(attr(byClass('first-screen')[0], 'aria-hidden'), 'true', 'hidden from assistive technology');
    assert.match(attr(rows[1], 'class') ?? '', /\bkind-decision\b/);
    assert.match(attr(rows[2], 'class') ?? '', /\bone-line\b/);
    assert.equal(textOf(byClass('tl-call')[0]), `search(query=${JSON.stringify([HOSTILE[3], HOSTILE[4]])})`.replace('\u202E', ''));
    assert.deepEqual(byClass('tl-headline').slice(0, 2).map(textOf), ['User', '↳ search']);
    assert.equal(textOf(byClass('is-pending')[0]), 'tokenscounting…');
  });

  it('escapes all five HTML-significant characters', () => {
    assert.equal(escapeHtml(`<a href="x" title='y'>&</a>`), '&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;&#38;&#60;/a&#62;');
  });
});
