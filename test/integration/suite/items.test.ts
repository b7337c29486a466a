// The benchmark-item view in the real VS Code: Delegation items (full and blind views, blind
// reviews saved into the sidecar under the reviewer's name, undo, dirty tab), scenario sets
// (human criteria marked, results.jsonl merged into a run folder), DeepSearchQA and
// Clarify-Then-Search files. The security checks read the messages the host posts to the
// webview, not the DOM.
import * as assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import type { TrajauditApi } from '../../../src/extension/extension';
import type { ItemSession } from '../../../src/extension/items/itemSession';
import type { ItemFromWebview, ItemToWebview } from '../../../src/shared/itemProtocol';
import { readAnnotationFile } from '../../../src/core/scoring/agreementInputs';
import { activateExtension, closeAllEditors, samplesRoot, waitFor } from './helpers.js';

const VIEW_TYPE = 'trajaudit.items';
const REVIEWER = 'it-reviewer';

/** Fields of the pipeline a blind reviewer must never be sent (seed 000, human validation). */
const PIPELINE_KEYS = [
  'conflict_hint',
  'discriminating_constraint',
  'target_info_point',
  'distractor_type',
  'target_evidence_text',
  'source_doc_key',
  'reasoning_steps',
  'evidence_spans',
  'synthetic_url',
  'pseudo_publish_time',
  'audit',
  'evidence',
  'reasoning',
  'highlights',
];

function tabFor(uri: vscode.Uri): vscode.Tab | undefined {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputCustom && t.input.uri.toString() === uri.toString());
}

/** The pipeline-generated texts of an item file (to look for in what the host posts). */
function pipelineTexts(file: string): string[] {
  const item = JSON.parse(readFileSync(file, 'utf8')) as { distractor_docs?: Record<string, unknown>[]; reasoning_steps?: unknown[] };
  const out: string[] = [];
  for (const d of item.distractor_docs ?? []) {
    for (const key of ['conflict_hint', 'discriminating_constraint', 'target_info_point', 'distractor_type'])
      if (typeof d[key] === 'string') out.push(d[key] as string);
  }
  for (const s of item.reasoning_steps ?? []) out.push(String(s));
  return out;
}

function keysDeep(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => keysDeep(v, out));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      keysDeep(v, out);
    }
  return out;
}

suite('Benchmark item view: Delegation items, blind review, scenario sets', () => {
  let api: TrajauditApi;
  let dir: string;

  suiteSetup(async () => {
    api = (await activateExtension()).exports as TrajauditApi;
    assert.ok(api.itemsProvider, 'the extension exposes its item view provider');
  });

  setup(async () => {
    dir = join(samplesRoot().fsPath, '.scratch', `items-${Date.now()}`);
    mkdirSync(dir, { recursive: true });
    await api.itemsProvider.setReviewer(REVIEWER);
    await api.itemsProvider.setBlind(false);
  });

  teardown(async () => {
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) {
        if (!(tab.input instanceof vscode.TabInputCustom) || !tab.isDirty) continue;
        for (const s of api.itemsProvider.sessionsFor(tab.input.uri)) s.panel.reveal();
        await vscode.commands.executeCommand('workbench.action.files.revert');
      }
    }
    await closeAllEditors();
    await api.itemsProvider.setBlind(false);
    rmSync(dir, { recursive: true, force: true });
  });

  async function open(uri: vscode.Uri): Promise<ItemSession> {
    await vscode.commands.executeCommand('vscode.openWith', uri, VIEW_TYPE);
    return waitFor(() => api.itemsProvider.sessionsFor(uri)[0], { message: `the item view of ${basename(uri.fsPath)} opens` });
  }

  /** Drives the session as its webview would, recording every message the host posts meanwhile. */
  async function drive(session: ItemSession, messages: ItemFromWebview[]): Promise<ItemToWebview[]> {
    const posted: ItemToWebview[] = [];
    const sub = session.onDidPost((m) => posted.push(m));
    try {
      for (const m of messages) await session.handleMessage(m);
    } finally {
      sub.dispose();
    }
    return posted;
  }

  function copySample(relative: string, to = dir): vscode.Uri {
    const target = join(to, basename(relative));
    mkdirSync(to, { recursive: true });
    copyFileSync(join(samplesRoot().fsPath, relative), target);
    return vscode.Uri.file(target);
  }

  test('every sample Delegation item opens; in blind mode no pipeline field or text reaches the webview', async () => {
    const folder = join(samplesRoot().fsPath, 'items', 'delegation');
    const files = readdirSync(folder)
      .filter((f) => f.endsWith('.json'))
      .sort();
    assert.ok(files.length >= 3 && files.includes('leaky-item.json'));
    for (const name of files) {
      const file = join(folder, name);
      const uri = vscode.Uri.file(file);
      const session = await open(uri);
      const texts = pipelineTexts(file);

      // Full view: the pipeline fields are there (so the checks below can see them if they leak).
      const full = await drive(session, [{ type: 'ready' }]);
      const init = full.find((m) => m.type === 'init');
      assert.ok(init && init.type === 'init' && init.payload.kind === 'delegation', `${name}: init with a Delegation payload`);
      const fullJson = JSON.stringify(full);
      assert.ok(
        texts.every((t) => fullJson.includes(JSON.stringify(t).slice(1, -1))),
        `${name}: the full view carries the pipeline texts`,
      );
      if (init.payload.kind === 'delegation' && init.payload.state.view.mode === 'full') {
        assert.ok(
          init.payload.state.view.evidence.every((e) => e.status !== 'missing'),
          `${name}: every evidence span is located`,
        );
        assert.ok(
          init.payload.state.view.golden.some((d) => d.highlights.length > 0),
          `${name}: golden documents carry highlights`,
        );
      }

      // Blind view: switching, re-opening (ready), selecting, and recording must all stay clean.
      const blind = await drive(session, [{ type: 'setBlind', blind: true }, { type: 'ready' }, { type: 'selectItem', itemId: session.currentItemId! }]);
      assert.ok(blind.length >= 3, `${name}: blind messages were posted`);
      for (const m of blind) {
        const keys = keysDeep(m);
        for (const k of PIPELINE_KEYS) assert.ok(!keys.has(k), `${name}: "${k}" posted in blind mode (${m.type})`);
        const json = JSON.stringify(m);
        for (const t of texts) assert.ok(!json.includes(JSON.stringify(t).slice(1, -1)), `${name}: pipeline text posted in blind mode: ${t.slice(0, 50)}`);
        if (m.type === 'delegation' || m.type === 'init') {
          const state = m.type === 'init' ? (m.payload.kind === 'delegation' ? m.payload.state : undefined) : m.state;
          assert.equal(state?.blind, true);
          assert.equal(state?.view.mode, 'blind');
          assert.equal(state?.reviews, undefined, "other reviewers' judgments are not sent in blind mode");
        }
      }
      await api.itemsProvider.setBlind(false);
      await closeAllEditors();
    }
  });

  test('a blind review is an undoable edit that dirties the tab; save writes it into the sidecar under the reviewer, beside other reviews', async () => {
    const uri = copySample('items/delegation/deleg-en-0231-oil-fund-equity-gap.json');
    const sidecarPath = `${uri.fsPath}.audit.json`;
    // Another annotator's review is already on file.
    writeFileSync(
      sidecarPath,
      JSON.stringify({
        schema: 'trajaudit.audit/v1',
        trajectory: { file: basename(uri.fsPath) },
        records: { 'deleg-en-0231': { reviews: [{ annotator: 'other-annotator', answerability: false, notes: 'SECRET-OTHER-NOTE' }] } },
      }),
    );
    const itemText = readFileSync(uri.fsPath, 'utf8');
    const session = await open(uri);
    await api.itemsProvider.setBlind(true);
    const posted = await drive(session, [
      { type: 'ready' },
      { type: 'editReview', itemId: 'deleg-en-0231', patch: { answerability: true }, label: 'Judge answerability' },
      { type: 'editReview', itemId: 'deleg-en-0231', patch: { shortcut_free: true }, label: 'Judge shortcut leakage' },
      { type: 'editReview', itemId: 'deleg-en-0231', patch: { irrelevant: { docId: 'd01', value: true } }, label: 'Judge d01' },
      { type: 'editReview', itemId: 'deleg-en-0231', patch: { irrelevant: { docId: 'd09', value: false } }, label: 'Judge d09' },
      { type: 'editReview', itemId: 'deleg-en-0231', patch: { distractor: { docId: 'd02', value: true } }, label: 'Judge d02' },
      { type: 'editReview', itemId: 'deleg-en-0231', patch: { distractor: { docId: 'd08', value: false } }, label: 'Judge d08' },
      { type: 'editReview', itemId: 'deleg-en-0231', patch: { notes: 'd09 gives the H1 2024 equity return' }, label: 'Edit review note' },
    ]);
    assert.ok(!JSON.stringify(posted).includes('SECRET-OTHER-NOTE'), "another reviewer's review is never sent in blind mode");
    assert.ok(!JSON.stringify(posted).includes('other-annotator'));
    const last = posted.filter((m) => m.type === 'review').at(-1);
    assert.ok(last && last.type === 'review' && last.myReview?.annotator === REVIEWER);
    assert.equal(last.items[0].review, 'partial', 'd03-golden needs no judgment; d04 and d05 are still open');
    await waitFor(() => tabFor(uri)?.isDirty === true, { message: 'the tab shows dirty' });
    assert.ok(
      readFileSync(sidecarPath, 'utf8').includes('other-annotator') && !readFileSync(sidecarPath, 'utf8').includes(REVIEWER),
      'nothing written before save',
    );

    assert.ok(await vscode.workspace.save(uri), 'save succeeds');
    await waitFor(() => tabFor(uri)?.isDirty === false, { message: 'the tab is clean after save' });
    const sidecar = JSON.parse(readFileSync(sidecarPath, 'utf8'));
    assert.equal(sidecar.schema, 'trajaudit.audit/v2');
    assert.equal(sidecar.trajectory.format, 'delegation-item');
    const reviews = sidecar.records['deleg-en-0231'].reviews as Record<string, unknown>[];
    assert.deepEqual(
      reviews.map((r) => r.annotator),
      ['other-annotator', REVIEWER],
    );
    const mine = reviews[1];
    assert.equal(mine.answerability, true);
    assert.equal(mine.shortcut_free, true);
    assert.deepEqual(mine.irrelevant_labels, { d01: true, d09: false });
    assert.deepEqual(mine.distractor_validity, { d02: true, d08: false });
    assert.equal(mine.notes, 'd09 gives the H1 2024 equity return');
    assert.equal(mine.blind, true);
    assert.equal(readFileSync(uri.fsPath, 'utf8'), itemText, 'the item file is never written');
    assert.deepEqual(readdirSync(dir).sort(), [basename(uri.fsPath), basename(sidecarPath)].sort(), 'no temp file left behind');

    // `trajaudit agreement` reads the sidecar as is.
    const read = readAnnotationFile(sidecarPath);
    assert.deepEqual(
      read.map((r) => [r.item, r.annotator]),
      [
        ['deleg-en-0231', 'other-annotator'],
        ['deleg-en-0231', REVIEWER],
      ],
    );
    // The per-document maps have no prototype (ids from data, src/core/input/idKeyed.ts): compare as JSON.
    assert.deepEqual(JSON.parse(JSON.stringify(read[1].labels)), {
      answerability: true,
      shortcut_free: true,
      irrelevant_labels: { d01: true, d09: false },
      distractor_validity: { d02: true, d08: false },
    });
  });

  test("undo and redo restore the reviewer's previous judgments; judgments are refused outside blind mode", async () => {
    const uri = copySample('items/delegation/leaky-item.json');
    const session = await open(uri);
    const refused = await drive(session, [{ type: 'ready' }, { type: 'editReview', itemId: 'deleg-en-0142', patch: { answerability: true }, label: 'x' }]);
    assert.ok(
      refused.some((m) => m.type === 'error' && /blind review only/.test(m.message)),
      'not recorded outside blind mode',
    );
    await api.itemsProvider.setBlind(true);
    await drive(session, [
      { type: 'editReview', itemId: 'deleg-en-0142', patch: { shortcut_free: false }, label: 'Judge shortcut leakage' },
      { type: 'editReview', itemId: 'deleg-en-0142', patch: { shortcut_free: true }, label: 'Judge shortcut leakage' },
    ]);
    const review = () => session.document.review('deleg-en-0142', REVIEWER);
    assert.equal(review()?.shortcut_free, true);
    session.panel.reveal();
    await waitFor(
      () => {
        const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
        return input instanceof vscode.TabInputCustom && input.uri.toString() === uri.toString();
      },
      { message: 'the item view is the active editor' },
    );
    await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
    await vscode.commands.executeCommand('undo');
    await waitFor(() => review()?.shortcut_free === false, { message: 'undo restores "not free of shortcut leakage"' });
    await vscode.commands.executeCommand('undo');
    await waitFor(() => review() === undefined, { message: 'undo removes the review' });
    await vscode.commands.executeCommand('redo');
    await waitFor(() => review()?.shortcut_free === false, { message: 'redo re-applies it' });
    // Hot exit: a backup restores the unsaved review.
    const backup = await api.itemsProvider.backupCustomDocument(session.document, { destination: vscode.Uri.file(join(dir, 'backup.json')) });
    const reopened = await api.itemsProvider.openCustomDocument(uri, { backupId: backup.id, untitledDocumentData: undefined });
    assert.equal(reopened.review('deleg-en-0142', REVIEWER)?.shortcut_free, false);
    assert.equal(reopened.isDirty, true);
    reopened.dispose();
  });

  test('judgments written on disk by someone else reload a clean view', async () => {
    const uri = copySample('items/delegation/deleg-zh-0158-olympic-events.json');
    const session = await open(uri);
    await drive(session, [{ type: 'ready' }]);
    writeFileSync(
      `${uri.fsPath}.audit.json`,
      JSON.stringify({
        schema: 'trajaudit.audit/v1',
        trajectory: { file: basename(uri.fsPath) },
        records: { 'deleg-zh-0158': { reviews: [{ annotator: 'r3', answerability: true }] } },
      }),
    );
    await waitFor(() => session.document.reviews('deleg-zh-0158').some((r) => r.annotator === 'r3'), {
      message: 'the view reloads the reviews',
      timeoutMs: 15_000,
    });
    assert.equal(session.document.isDirty, false);
  });

  test('scenario set: human criteria marked hit or missed and silent citations are merged into results.jsonl, mechanical results kept', async () => {
    const setDir = join(dir, 'set');
    const uri = copySample('items/scenarios/scenario-set.json', setDir);
    const runDir = join(setDir, 'scenarios-run');
    mkdirSync(runDir);
    // Mechanical results already written by a checker, with a field the editor does not know.
    const mechanical = '{"scenario": "TS-01", "criteria": {"TS01-A1": true, "TS01-A2": false, "TS01-B1": true}, "deliverable": "plan.md"}';
    writeFileSync(join(runDir, 'results.jsonl'), `${mechanical}\n`);
    const session = await open(uri);
    const posted = await drive(session, [
      { type: 'ready' },
      { type: 'markCriterion', scenarioId: 'TS-01', criterionId: 'TS01-A5', value: true },
      { type: 'markCriterion', scenarioId: 'TS-02', criterionId: 'TS02-A4', value: false },
      { type: 'markCriterion', scenarioId: 'TS-02', criterionId: 'TS02-A1', value: true },
      { type: 'markCriterion', scenarioId: 'TS-02', criterionId: 'TS02-A1', value: null },
      { type: 'setSilentCitations', scenarioId: 'TS-02', value: 1 },
    ]);
    const init = posted.find((m) => m.type === 'init');
    assert.ok(init && init.type === 'init' && init.payload.kind === 'scenarios');
    assert.equal(init.payload.set.scenarios.length, 10);
    assert.equal(init.payload.state.resultsExists, true);
    assert.equal(init.payload.state.manifest, 'created-on-save');
    const state = posted.filter((m) => m.type === 'scenarioState').at(-1);
    assert.ok(state && state.type === 'scenarioState');
    assert.deepEqual(state.state.changed.sort(), ['TS-01', 'TS-02']);
    assert.deepEqual(state.state.results['TS-01'].criteria, { 'TS01-A1': true, 'TS01-A2': false, 'TS01-B1': true, 'TS01-A5': true });
    await waitFor(() => tabFor(uri)?.isDirty === true, { message: 'the tab shows dirty' });
    assert.equal(readFileSync(join(runDir, 'results.jsonl'), 'utf8'), `${mechanical}\n`, 'nothing written before save');

    assert.ok(await vscode.workspace.save(uri), 'save succeeds');
    await waitFor(() => tabFor(uri)?.isDirty === false, { message: 'the tab is clean after save' });
    const lines = readFileSync(join(runDir, 'results.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(lines, [
      { scenario: 'TS-01', criteria: { 'TS01-A1': true, 'TS01-A2': false, 'TS01-A5': true, 'TS01-B1': true }, deliverable: 'plan.md' },
      { scenario: 'TS-02', criteria: { 'TS02-A4': false }, silent_citations: 1 },
    ]);
    assert.deepEqual(JSON.parse(readFileSync(join(runDir, 'trajaudit.run.json'), 'utf8')), {
      kind: 'scenarios',
      scenarios: '../scenario-set.json',
      results: 'results.jsonl',
    });
    assert.deepEqual(readdirSync(runDir).sort(), ['results.jsonl', 'trajaudit.run.json'], 'no temp file left behind');

    // Another run folder (what "Change Run Folder…" does after the dialog): marks go there.
    const other = vscode.Uri.file(join(dir, 'other-run'));
    await api.itemsProvider.setRunFolder(session.document, other);
    await drive(session, [{ type: 'markCriterion', scenarioId: 'TS-03', criterionId: 'TS03-A6', value: true }]);
    assert.ok(await vscode.workspace.save(uri));
    assert.equal(readFileSync(join(other.fsPath, 'results.jsonl'), 'utf8'), '{"scenario":"TS-03","criteria":{"TS03-A6":true}}\n');
    assert.equal(JSON.parse(readFileSync(join(other.fsPath, 'trajaudit.run.json'), 'utf8')).scenarios, '../set/scenario-set.json');
  });

  test('DeepSearchQA (CSV, JSONL) and Clarify-Then-Search files open through the command, content-detected', async () => {
    for (const [relative, kind, count] of [
      ['items/deepsearchqa/deepsearchqa-sample.csv', 'deepsearchqa', 12],
      ['items/deepsearchqa/deepsearchqa-sample.jsonl', 'deepsearchqa', 12],
      ['items/clarify/clarify-instances.jsonl', 'clarify', 6],
    ] as const) {
      const uri = vscode.Uri.joinPath(samplesRoot(), ...relative.split('/'));
      await vscode.commands.executeCommand('trajaudit.openItemView', uri);
      const session = await waitFor(() => api.itemsProvider.sessionsFor(uri)[0], { message: `${relative} opens` });
      const [init] = await drive(session, [{ type: 'ready' }]);
      assert.ok(init.type === 'init', relative);
      assert.equal(init.payload.kind, kind, relative);
      const n = init.payload.kind === 'deepsearchqa' ? init.payload.rows.length : init.payload.kind === 'clarify' ? init.payload.instances.length : -1;
      assert.equal(n, count, relative);
      if (init.payload.kind === 'deepsearchqa') {
        assert.deepEqual(
          init.payload.rows.slice(0, 2).map((r) => r.id),
          ['0', '1'],
          'a row without an id column is its 0-based row number',
        );
        assert.ok(init.payload.rows.every((r) => r.answerType === 'Single Answer' || r.answerType === 'Set Answer'));
      }
      await closeAllEditors();
    }
  });
});
