import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TrajauditApi } from '../../../src/extension/extension';
import type { TrajectoryDocument } from '../../../src/extension/editor/trajectoryDocument';
import { PanelSession } from '../../../src/extension/editor/panelSession';
import { webviewPage } from '../../../src/extension/webviewPage';
import { MIN_ROW_JSON_CHARS } from '../../../src/core/view/rows';
import { FIRST_WINDOW_ROWS } from '../../../src/core/view/recordView';
import type { ToWebview } from '../../../src/shared/protocol';
import { activateExtension, closeAllEditors, getExtension, samplesRoot, waitFor } from './helpers.js';

const VIEW_TYPE = 'trajaudit.trajectoryAny';
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

const TRAJECTORY = {
  query: 'Which composer premiered an opera in Riga in 1911?',
  predicted_answer: 'Jāzeps Vītols',
  trajectory: [
    { role: 'user', content: 'Which composer premiered an opera in Riga in 1911?' },
    {
      role: 'assistant',
      content: '',
      reasoning_content: 'Search.',
      tool_calls: [{ id: 'a', type: 'function', function: { name: 'search', arguments: '{"query": ["Riga opera premiere 1911"]}' } }],
    },
    { role: 'tool', tool_call_id: 'a', content: 'Results…' },
    {
      role: 'assistant',
      content: '',
      tool_calls: [{ id: 'b', type: 'function', function: { name: 'visit', arguments: '{"url": "https://example.org/riga"}' } }],
    },
    { role: 'tool', tool_call_id: 'b', content: 'Page…' },
    { role: 'assistant', content: 'Jāzeps Vītols' },
  ],
};

function tabFor(uri: vscode.Uri): vscode.Tab | undefined {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputCustom && t.input.uri.toString() === uri.toString());
}

suite('Trajectory editor: annotate, save, undo, hot exit, external change', () => {
  let api: TrajauditApi;
  let dir: string;
  let file: string;
  let uri: vscode.Uri;

  suiteSetup(async () => {
    api = (await activateExtension()).exports as TrajauditApi;
  });

  setup(async () => {
    dir = join(samplesRoot().fsPath, '.scratch', `editor-${Date.now()}`);
    mkdirSync(dir, { recursive: true });
    file = join(dir, 'case.traj.json');
    writeFileSync(file, JSON.stringify(TRAJECTORY, null, 2));
    uri = vscode.Uri.file(file);
    await vscode.commands.executeCommand('vscode.openWith', uri, VIEW_TYPE);
    await waitFor(() => api.editorProvider.sessionsFor(uri).length > 0, { message: 'the editor panel opens' });
  });

  teardown(async () => {
    // Revert first: closing a dirty editor would open a modal "save changes?" dialog.
    for (const session of api.editorProvider.sessionsFor(uri)) {
      session.panel.reveal();
      if (tabFor(uri)?.isDirty) await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    await closeAllEditors();
    rmSync(dir, { recursive: true, force: true });
  });

  function documentOf(): TrajectoryDocument {
    return api.editorProvider.sessionsFor(uri)[0].document;
  }

  function edit(annotation: Record<string, unknown>, label: string): void {
    api.editorProvider.sessionsFor(uri)[0].handleMessage({ type: 'editAnnotation', recordId: '0', annotation, label });
  }

  test('an annotation edit marks the tab dirty, save writes the sidecar atomically, the trajectory is untouched', async () => {
    const before = sha(file);
    edit({ criticalStep: 3, toleranceSpan: [1, 3], rootCause: 'unverified_source_reliance', annotator: 'it' }, 'Set critical step 3');
    await waitFor(() => tabFor(uri)?.isDirty === true, { message: 'the tab shows dirty' });
    assert.ok(await vscode.workspace.save(uri), 'save succeeds');
    await waitFor(() => tabFor(uri)?.isDirty === false, { message: 'the tab is clean after save' });
    const sidecar = JSON.parse(readFileSync(`${file}.audit.json`, 'utf8'));
    assert.equal(sidecar.schema, 'trajaudit.audit/v2');
    assert.equal(sidecar.trajectory.sha256, before);
    assert.deepEqual(sidecar.records['0'].annotation, {
      criticalStep: 3,
      toleranceSpan: [1, 3],
      rootCause: 'unverified_source_reliance',
      annotator: 'it',
      trajectorySha256: before,
    });
    assert.equal(sha(file), before, 'the trajectory file is never written');
  });

  test('an annotation made on other trajectory content is flagged in the record list until it is saved again (issue 20 #8)', async () => {
    writeFileSync(
      `${file}.audit.json`,
      JSON.stringify({
        schema: 'trajaudit.audit/v2',
        trajectory: { file: 'case.traj.json', sha256: sha(file) },
        records: { '0': { annotation: { criticalStep: 1, rootCause: 'search_coverage_gap', trajectorySha256: 'made-on-other-content' } } },
      }),
    );
    await documentOf().revert();
    assert.equal(documentOf().annotationOutdated('0'), true);
    const session = api.editorProvider.sessionsFor(uri)[0];
    const lists: { annotationOutdated?: boolean }[][] = [];
    const listening = session.onDidPost((m) => {
      if ('records' in m && Array.isArray(m.records)) lists.push(m.records);
    });
    try {
      edit({ criticalStep: 3, rootCause: 'search_coverage_gap' }, 'Set critical step 3');
      await waitFor(() => lists.length > 0, { message: 'the edit is echoed with the record list' });
      assert.equal(lists.at(-1)?.[0]?.annotationOutdated, true, 'still flagged while unsaved');
      assert.ok(await vscode.workspace.save(uri), 'save succeeds');
      await waitFor(() => lists.at(-1)?.[0]?.annotationOutdated === undefined, { message: 'the flag clears once saved' });
    } finally {
      listening.dispose();
    }
    assert.equal(JSON.parse(readFileSync(`${file}.audit.json`, 'utf8')).records['0'].annotation.trajectorySha256, sha(file));
  });

  test('undo restores the previous annotation, redo re-applies it', async () => {
    edit({ criticalStep: 1, rootCause: 'search_coverage_gap' }, 'Set critical step 1');
    edit({ criticalStep: 3, rootCause: 'search_coverage_gap' }, 'Set critical step 3');
    assert.equal(documentOf().annotation('0')?.criticalStep, 3);
    api.editorProvider.sessionsFor(uri)[0].panel.reveal();
    await waitFor(
      () => {
        const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
        return input instanceof vscode.TabInputCustom && input.uri.toString() === uri.toString();
      },
      { message: 'the trajectory editor is the active editor' },
    );
    await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
    await vscode.commands.executeCommand('undo');
    await waitFor(() => documentOf().annotation('0')?.criticalStep === 1, { message: 'undo restores step 1' });
    await vscode.commands.executeCommand('undo');
    await waitFor(() => documentOf().annotation('0') === undefined, { message: 'undo removes the first annotation' });
    await vscode.commands.executeCommand('redo');
    await waitFor(() => documentOf().annotation('0')?.criticalStep === 1, { message: 'redo re-applies it' });
  });

  test('a backup (hot exit) restores an unsaved annotation when the document is reopened', async () => {
    edit({ criticalStep: 5, rootCause: 'unsupported_answer', rationale: 'unsaved work' }, 'Set critical step 5');
    const destination = vscode.Uri.file(join(dir, 'backup.json'));
    const backup = await api.editorProvider.backupCustomDocument(documentOf(), { destination });
    assert.ok(!existsSync(`${file}.audit.json`), 'nothing was saved');
    const reopened = await api.editorProvider.openCustomDocument(uri, { backupId: backup.id, untitledDocumentData: undefined });
    assert.equal(reopened.annotation('0')?.rationale, 'unsaved work');
    assert.equal(reopened.isDirty, true);
    reopened.dispose();
  });

  test('a sidecar changed on disk while dirty raises the prompt and is not overwritten silently', async () => {
    edit({ criticalStep: 3, rootCause: 'constraint_neglect' }, 'Set critical step 3');
    const prompted = new Promise<string>((resolve) => api.editorProvider.onDidPrompt(resolve));
    const external = {
      schema: 'trajaudit.audit/v1',
      trajectory: { file: 'case.traj.json' },
      records: { '0': { annotation: { criticalStep: 1, rootCause: 'search_coverage_gap', annotator: 'someone else' } } },
    };
    writeFileSync(`${file}.audit.json`, JSON.stringify(external));
    const message = await Promise.race([prompted, new Promise<string>((_, reject) => setTimeout(() => reject(new Error('no prompt within 15 s')), 15000))]);
    assert.match(message, /changed on disk while you have unsaved annotations/);
    assert.equal(documentOf().annotation('0')?.criticalStep, 3, 'the unsaved edit is kept');
    assert.equal(JSON.parse(readFileSync(`${file}.audit.json`, 'utf8')).records['0'].annotation.annotator, 'someone else', 'the disk file is untouched');
  });

  test('two editors on the same file share one document: an edit in one shows in both, save cleans both', async () => {
    await vscode.commands.executeCommand('vscode.openWith', uri, VIEW_TYPE, { viewColumn: vscode.ViewColumn.Beside });
    await waitFor(() => api.editorProvider.sessionsFor(uri).length === 2, { message: 'a second editor of the same file' });
    const [first, second] = api.editorProvider.sessionsFor(uri);
    assert.equal(first.document, second.document, 'one document');
    second.handleMessage({
      type: 'editAnnotation',
      recordId: '0',
      annotation: { criticalStep: 3, rootCause: 'candidate_mismanagement' },
      label: 'Set critical step 3',
    });
    assert.equal(first.document.annotation('0')?.criticalStep, 3);
    first.handleMessage({
      type: 'editAnnotation',
      recordId: '0',
      annotation: { criticalStep: 3, rootCause: 'candidate_mismanagement', rationale: 'from the first editor' },
      label: 'Set rationale',
    });
    assert.ok(await vscode.workspace.save(uri));
    const saved = JSON.parse(readFileSync(`${file}.audit.json`, 'utf8')).records['0'].annotation;
    const { trajectorySha256, ...edits } = saved;
    assert.deepEqual(edits, { criticalStep: 3, rootCause: 'candidate_mismanagement', rationale: 'from the first editor' }, 'both edits are kept');
    assert.match(trajectorySha256, /^[0-9a-f]{64}$/, 'saving stamps the content the annotation was made on');
  });

  test('the first view travels inside the page; the host sends init again only when that went stale', async () => {
    const document = documentOf();
    const panelRecording = () => {
      const sent: ToWebview[] = [];
      const webview = { postMessage: async (m: ToWebview) => sent.push(m) > 0, onDidReceiveMessage: () => ({ dispose() {} }) };
      return { panel: { webview } as unknown as vscode.WebviewPanel, inits: () => sent.filter((m) => m.type === 'init') };
    };
    const sessions: PanelSession[] = [];
    const open = (panel: vscode.WebviewPanel) => {
      const session = new PanelSession(panel, document, api.editorProvider, () => {});
      sessions.push(session);
      return session;
    };
    try {
      // Fresh: the webview draws the embedded init; its 'ready' brings no second one.
      const a = panelRecording();
      const fresh = open(a.panel);
      const page = fresh.embeddedInit(2_000_000);
      const embedded = JSON.parse(page.json ?? 'null') as Extract<ToWebview, { type: 'init' }>;
      assert.equal(embedded.type, 'init');
      assert.equal(embedded.view.rows.length, TRAJECTORY.trajectory.length);
      fresh.handleMessage({ type: 'ready', embeddedInit: true });
      assert.equal(a.inits().length, 0, 'no init after a fresh embedded one');
      // Stale: an edit lands between building the page and 'ready'.
      const b = panelRecording();
      const stale = open(b.panel);
      stale.embeddedInit(2_000_000);
      // (Changed on the document directly: no undo entry, so the real tab stays clean.)
      document.setAnnotation('0', { criticalStep: 3, rootCause: 'constraint_neglect' });
      stale.handleMessage({ type: 'ready', embeddedInit: true });
      assert.equal(b.inits().length, 1, 'init sent again');
      assert.equal(b.inits()[0].type === 'init' && b.inits()[0].view.annotation?.criticalStep, 3, 'with the edit');
      // Too big to embed, known from the message count alone: built and posted after the page,
      // and 'ready' brings no second one.
      const c = panelRecording();
      const big = open(c.panel);
      const bigPage = big.embeddedInit(10);
      assert.equal(bigPage.json, undefined);
      assert.equal(c.inits().length, 0, 'nothing posted before the page');
      big.postPreparedInit();
      assert.equal(c.inits().length, 1, 'posted after the page');
      assert.equal(c.inits()[0].type === 'init' && c.inits()[0].view.rows.length, TRAJECTORY.trajectory.length);
      big.handleMessage({ type: 'ready' });
      assert.equal(c.inits().length, 1, 'no init after the one posted with the page');
      // Too big once built (rows past the lower bound): the view built for the page is posted as it is.
      const c2 = panelRecording();
      const built = open(c2.panel);
      assert.equal(built.embeddedInit(TRAJECTORY.trajectory.length * MIN_ROW_JSON_CHARS).json, undefined);
      built.postPreparedInit();
      built.handleMessage({ type: 'ready' });
      assert.equal(c2.inits().length, 1, 'one init, the one built with the page');
      // 'ready' before the deferred post (a page faster than the host): one init, from 'ready'.
      const c3 = panelRecording();
      const early = open(c3.panel);
      early.embeddedInit(10);
      early.handleMessage({ type: 'ready' });
      early.postPreparedInit();
      assert.equal(c3.inits().length, 1, 'the deferred post is dropped once ready has sent init');
      // ... unless an edit lands before 'ready': then a new one, with the edit.
      const d = panelRecording();
      const bigStale = open(d.panel);
      bigStale.embeddedInit(10);
      bigStale.postPreparedInit();
      document.setAnnotation('0', { criticalStep: 4, rootCause: 'constraint_neglect' });
      bigStale.handleMessage({ type: 'ready' });
      assert.equal(d.inits().length, 2);
      assert.equal(
        d.inits()[1].type === 'init' && d.inits()[1].view.annotation?.criticalStep,
        4,
        'the init posted with the page went stale: built again, with the edit',
      );
    } finally {
      for (const session of sessions) session.dispose();
      document.setAnnotation('0', undefined);
    }
  });

  test('a view too big to embed whole: the page carries its first window, the whole view is sent on ready', async () => {
    const messages = [{ role: 'user', content: 'Which composer premiered an opera in Riga in 1911?' }];
    for (let i = 1; i < 1000; i++)
      messages.push(i % 2 ? { role: 'assistant', content: `Step ${i}: search again.` } : { role: 'user', content: `Result ${i}.` });
    const bigFile = join(dir, 'long.json');
    writeFileSync(bigFile, JSON.stringify({ messages }));
    const bigUri = vscode.Uri.file(bigFile);
    await vscode.commands.executeCommand('vscode.openWith', bigUri, VIEW_TYPE);
    await waitFor(() => api.editorProvider.sessionsFor(bigUri).length > 0, { message: 'the editor panel of the long file opens' });
    const sent: ToWebview[] = [];
    const webview = { postMessage: async (m: ToWebview) => sent.push(m) > 0, onDidReceiveMessage: () => ({ dispose() {} }) };
    const session = new PanelSession(
      { webview } as unknown as vscode.WebviewPanel,
      api.editorProvider.sessionsFor(bigUri)[0].document,
      api.editorProvider,
      () => {},
    );
    try {
      // 1,000 rows are past 90,000 characters by the lower bound alone; their first 150 are not.
      const maxChars = 90_000;
      assert.ok(messages.length * MIN_ROW_JSON_CHARS > maxChars);
      const page = session.embeddedInit(maxChars);
      assert.ok(page.json && page.json.length <= maxChars, 'a first window is embedded, within the limit');
      const window = JSON.parse(page.json) as Extract<ToWebview, { type: 'init' }>;
      assert.equal(window.firstWindow, true);
      assert.deepEqual(
        window.view.rows.map((r) => r.position),
        Array.from({ length: FIRST_WINDOW_ROWS }, (_, i) => i),
      );
      assert.equal(window.view.header.messages, 1000, "the header is the whole record's");
      assert.equal(page.firstWindow, true);
      // Nothing goes with the page: the whole view is sent on 'ready' (the webview drew only the window).
      session.postPreparedInit();
      assert.equal(sent.length, 0, 'nothing posted with the page');
      session.handleMessage({ type: 'ready', embeddedInit: false });
      const inits = sent.filter((m) => m.type === 'init');
      assert.equal(inits.length, 1, 'the whole view, on ready');
      assert.equal(inits[0].type === 'init' && inits[0].view.rows.length, 1000);
      assert.equal(inits[0].type === 'init' && inits[0].firstWindow, undefined);
    } finally {
      session.dispose();
    }
  });

  test('the page inlines the bundle under its nonce and embeds the first message as inert JSON that cannot close its element', () => {
    const webview = { cspSource: 'https://webview.test', asWebviewUri: (u: vscode.Uri) => u } as unknown as vscode.Webview;
    const hostile = { type: 'init', text: '</script><script>alert(1)</script><!-- <SCRIPT> </style>' };
    const html = webviewPage(webview, getExtension().extensionUri, 'case', 'trajectory', JSON.stringify(hostile));
    const nonce = /'nonce-([^']+)'/.exec(html)?.[1];
    assert.ok(nonce, 'the CSP carries a nonce');
    const scripts = html.match(/<script\b[^>]*>/gi) ?? [];
    assert.deepEqual(
      scripts,
      ['<script type="application/json" id="trajaudit-init">', `<script nonce="${nonce}">`],
      'the data block and the bundle, nothing else',
    );
    const block = /<script type="application\/json" id="trajaudit-init">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    assert.ok(!block.includes('<'), 'no raw < in the data block');
    assert.deepEqual(JSON.parse(block), hostile, 'the message survives the escaping');
    assert.ok(html.includes(`<style nonce="${nonce}">`), 'the styles are inlined under the nonce');
  });

  test('revealStep opens the file and selects the message', async () => {
    const ok = await vscode.commands.executeCommand('trajaudit.revealStep', file, '0', 3);
    assert.equal(ok, true);
  });
});
