import * as vscode from 'vscode';
import { scoreScenarios } from '../../core/scoring/scenarios';
import type {
  DelegationState,
  InitPayload,
  ItemFileInfo,
  ItemFromWebview,
  ItemListEntry,
  ItemToWebview,
  ReviewPatch,
  ScenarioState,
} from '../../shared/itemProtocol';
import { KIND_LABEL, type ItemDocument } from './itemDocument';
import { blindItemView, clarifyView, dsqaRow, fullItemView, itemLabel, scenarioSetView } from '../../core/items/itemViews';
import { reviewProgress } from '../../core/items/blindReviews';

/** What a session needs from the provider: the reviewer, blind mode, and undoable edits. */
export interface ItemHost {
  readonly blind: boolean;
  readonly reviewer: string | undefined;
  setBlind(blind: boolean): Promise<void>;
  askReviewer(): Promise<string | undefined>;
  editReview(document: ItemDocument, itemId: string, patch: ReviewPatch, label: string): void;
  markCriterion(document: ItemDocument, scenarioId: string, criterionId: string, value: boolean | null): void;
  setSilentCitations(document: ItemDocument, scenarioId: string, value: number | null): void;
  chooseRunFolder(document: ItemDocument): Promise<void>;
}

/**
 * One webview panel showing an item document. Every message to the webview goes through
 * `post`, and every Delegation message is built by `delegationState` / `reviewMessage`, which
 * use the blind view (an allowlist) whenever blind mode is on.
 */
export class ItemSession implements vscode.Disposable {
  private ready = false;
  private itemId: string | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly posted = new vscode.EventEmitter<ItemToWebview>();
  /** Fires with every message posted to the webview (tests check what the webview was sent). */
  readonly onDidPost = this.posted.event;

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly document: ItemDocument,
    private readonly host: ItemHost,
    private readonly log: (message: string) => void,
  ) {
    this.itemId = document.delegationItems()[0]?.id;
    this.disposables.push(
      this.posted,
      panel.webview.onDidReceiveMessage((m: ItemFromWebview) => void this.handleMessage(m)),
      document.onDidChange((change) => {
        // A review changed (maybe of another item, by undo): the current item's review and the list.
        if (change.kind === 'review') this.post(this.reviewMessage());
        else if (change.kind === 'results') this.post({ type: 'scenarioState', state: this.scenarioState() });
        else this.refresh();
      }),
    );
  }

  get currentItemId(): string | undefined {
    return this.itemId;
  }

  private post(message: ItemToWebview): void {
    if (!this.ready) return;
    this.posted.fire(message);
    void this.panel.webview.postMessage(message);
  }

  /** Re-sends the current view (blind mode or reviewer changed, document reloaded). */
  refresh(): void {
    if (this.document.kind === 'delegation') this.post({ type: 'delegation', state: this.delegationState() });
    else if (this.document.kind === 'scenarios') this.post({ type: 'scenarioState', state: this.scenarioState() });
  }

  private info(): ItemFileInfo {
    const d = this.document;
    const info: ItemFileInfo = {
      file: d.loaded.file,
      kind: d.kind,
      kindLabel: KIND_LABEL[d.kind],
      container: d.loaded.container,
      detectionReason: d.loaded.detection.reason,
      records: d.records.length,
      problems: d.problems(),
    };
    if (d.sidecarProblem) info.readOnlyReason = `Reviews cannot be saved: ${d.sidecarProblem}`;
    return info;
  }

  private itemList(): ItemListEntry[] {
    const me = this.host.reviewer;
    const blind = this.host.blind;
    return this.document.delegationItems().map(({ id, item }) => {
      const entry: ItemListEntry = {
        id,
        label: itemLabel(item),
        review: me
          ? reviewProgress(
              this.document.review(id, me),
              item.irrelevant_docs.map((d) => String(d.doc_id)),
              item.distractor_docs.map((d) => String(d.doc_id)),
            )
          : 'none',
      };
      if (!blind) entry.reviews = this.document.reviews(id).length;
      return entry;
    });
  }

  /** The Delegation view: in blind mode only the allowlisted fields and the reviewer's own review. */
  delegationState(): DelegationState {
    const items = this.document.delegationItems();
    const current = items.find((r) => r.id === this.itemId) ?? items[0];
    this.itemId = current.id;
    const blind = this.host.blind;
    const me = this.host.reviewer;
    const state: DelegationState = {
      items: this.itemList(),
      itemId: current.id,
      blind,
      view: blind ? blindItemView(current.item) : fullItemView(current.item),
      sidecar: vscode.workspace.asRelativePath(this.document.sidecarUri),
    };
    if (me) state.reviewer = me;
    const mine = me ? this.document.review(current.id, me) : undefined;
    if (mine) state.myReview = mine;
    if (!blind) state.reviews = this.document.reviews(current.id);
    return state;
  }

  private reviewMessage(): Extract<ItemToWebview, { type: 'review' }> {
    const id = this.itemId ?? '';
    const me = this.host.reviewer;
    const message: Extract<ItemToWebview, { type: 'review' }> = { type: 'review', itemId: id, items: this.itemList() };
    const mine = me ? this.document.review(id, me) : undefined;
    if (mine) message.myReview = mine;
    if (!this.host.blind) message.reviews = this.document.reviews(id);
    return message;
  }

  scenarioState(): ScenarioState {
    const d = this.document;
    const set = d.scenarioSet();
    const run = d.run;
    const results = d.results();
    const score = set ? scoreScenarios(set, results) : undefined;
    const state: ScenarioState = {
      runFolder: run ? vscode.workspace.asRelativePath(vscode.Uri.file(run.folder)) : '',
      resultsFile: run ? vscode.workspace.asRelativePath(vscode.Uri.file(run.resultsPath)) : '',
      resultsExists: run?.resultsText !== undefined,
      manifest: run?.manifest ? 'present' : 'created-on-save',
      notices: [...(run?.notices ?? [])],
      results: Object.fromEntries(
        [...results].map(([id, line]) => {
          const view: { criteria: Record<string, boolean>; silent_citations?: number } = { criteria: { ...line.criteria } };
          if (line.silent_citations !== undefined) view.silent_citations = line.silent_citations;
          return [id, view];
        }),
      ),
      scores: score?.scenarios ?? {},
      aMean: score?.a_mean ?? null,
      gate: score ? { passed: score.gate.passed, reasons: score.gate.reasons } : { passed: false, reasons: [] },
      changed: d.changedScenarios(),
    };
    if (run?.problem) state.problem = run.problem;
    const unknown = run?.lines.map((l) => l.value.scenario).filter((id) => !set?.scenarios.some((s) => s.id === id)) ?? [];
    if (unknown.length) state.notices.push(`results for scenarios not in this set are kept as they are: ${unknown.join(', ')}`);
    return state;
  }

  private initPayload(): InitPayload {
    const d = this.document;
    switch (d.kind) {
      case 'delegation':
        return { kind: 'delegation', state: this.delegationState() };
      case 'deepsearchqa':
        return { kind: 'deepsearchqa', rows: d.records.flatMap((r) => (r.kind === 'deepsearchqa' ? [dsqaRow(r.row)] : [])) };
      case 'clarify':
        return { kind: 'clarify', instances: d.records.flatMap((r) => (r.kind === 'clarify-instance' ? [clarifyView(r.instance)] : [])) };
      case 'scenarios':
        return { kind: 'scenarios', set: scenarioSetView(d.scenarioSet()!), state: this.scenarioState() };
    }
  }

  /** Handles one webview message (public so tests can drive the view as its webview does). */
  async handleMessage(message: ItemFromWebview): Promise<void> {
    try {
      switch (message.type) {
        case 'ready':
          this.ready = true;
          this.post({ type: 'init', info: this.info(), payload: this.initPayload() });
          return;
        case 'selectItem':
          if (this.document.item(message.itemId)) {
            this.itemId = message.itemId;
            this.post({ type: 'delegation', state: this.delegationState() });
          }
          return;
        case 'setBlind':
          await this.host.setBlind(message.blind);
          return;
        case 'askReviewer':
          await this.host.askReviewer();
          return;
        case 'editReview':
          this.host.editReview(this.document, message.itemId, message.patch, message.label);
          return;
        case 'markCriterion':
          this.host.markCriterion(this.document, message.scenarioId, message.criterionId, message.value);
          return;
        case 'setSilentCitations':
          this.host.setSilentCitations(this.document, message.scenarioId, message.value);
          return;
        case 'chooseRunFolder':
          await this.host.chooseRunFolder(this.document);
          return;
        case 'openAsText':
          await vscode.commands.executeCommand('vscode.openWith', this.document.uri, 'default');
          return;
        case 'log':
          this.log(`item view: ${message.message}`);
          return;
      }
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      this.log(`item view: ${text}`);
      this.post({ type: 'error', message: text });
    }
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
