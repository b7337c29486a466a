// The benchmark-item view's fake extension host, in the test process: loads an item file through
// the real loader and answers the webview in src/shared/itemProtocol.ts with the host's own
// builders (src/extension/items: itemViews, reviews, runFolder, scenarioResults; the scenario
// scorer), assembling the messages as src/extension/items/itemSession.ts does. Blind mode, the
// reviewer name, reviews and scenario marks live in memory. Every message both ways is recorded.
import { relative } from 'node:path';
import type { Page } from '@playwright/test';
import type { DelegationItem, ScenarioSet } from '../../../src/core/items/schemas';
import { loadFile, type LoadedFile } from '../../../src/core/load/loadFile';
import { scoreScenarios } from '../../../src/core/scoring/scenarios';
import { blindItemView, clarifyView, dsqaRow, fullItemView, itemLabel, scenarioSetView } from '../../../src/core/items/itemViews';
import { applyReviewPatch, reviewProgress } from '../../../src/core/items/blindReviews';
import { readRunFolder, resultsById } from '../../../src/core/items/scenarioRunFolder';
import { withCriterion, withSilentCitations, type ResultLine } from '../../../src/core/items/scenarioResults';
import type {
  DelegationState,
  InitPayload,
  ItemFileInfo,
  ItemFromWebview,
  ItemListEntry,
  ItemToWebview,
  ItemViewKind,
  ReviewData,
} from '../../../src/shared/itemProtocol';
import { ITEM_FIXTURE_FILES, SCENARIO_RUN_FOLDER, UNMARKED_SCENARIOS, type ItemFixture } from './itemFixtures';
import { POST_BINDING, type HarnessWindow } from './pageGlobals';
import { repoRoot } from './paths';

// As src/extension/items/itemDocument.ts labels the kinds (that module needs vscode).
const KIND_LABEL: Record<ItemViewKind, string> = {
  delegation: 'Delegation items',
  deepsearchqa: 'DeepSearchQA',
  clarify: 'Clarify-Then-Search',
  scenarios: 'Scenario set',
};

export interface ItemHostOptions {
  /** Blind review on from the start. */
  blind?: boolean;
  /** The reviewer's name; null: none yet ("Set name" asks, and the fake answers "annotator-2"). */
  reviewer?: string | null;
}

type Posted<T extends ItemFromWebview['type']> = Extract<ItemFromWebview, { type: T }>;
type Sent<T extends ItemToWebview['type']> = Extract<ItemToWebview, { type: T }>;

function kindOf(loaded: LoadedFile): ItemViewKind {
  const kind = loaded.records[0]?.kind;
  if (kind === 'delegation-item') return 'delegation';
  if (kind === 'deepsearchqa') return 'deepsearchqa';
  if (kind === 'clarify-instance') return 'clarify';
  if (kind === 'scenario-set') return 'scenarios';
  throw new Error(`${loaded.file}: not an item file (first record: ${kind ?? 'none'})`);
}

export class FakeItemHost {
  readonly posted: ItemFromWebview[] = [];
  readonly sent: ItemToWebview[] = [];
  readonly errorLogs: string[] = [];
  blind: boolean;
  reviewer: string | undefined;
  private itemId: string | undefined;
  private readonly kind: ItemViewKind;
  private readonly items: { id: string; item: DelegationItem }[];
  private readonly reviews = new Map<string, ReviewData>();
  private readonly results = new Map<string, ResultLine>();
  private readonly changed = new Set<string>();
  private readonly scenarioSet: ScenarioSet | undefined;
  private delivery: Promise<void> = Promise.resolve();

  private constructor(
    private readonly page: Page,
    path: string,
    private readonly loaded: LoadedFile,
    options: ItemHostOptions,
  ) {
    this.kind = kindOf(loaded);
    this.blind = options.blind ?? false;
    this.reviewer = options.reviewer === null ? undefined : (options.reviewer ?? 'annotator-1');
    this.items = loaded.records.flatMap((r) => (r.kind === 'delegation-item' ? [{ id: r.id, item: r.item }] : []));
    this.itemId = this.items[0]?.id;
    const set = loaded.records[0];
    if (set?.kind === 'scenario-set') {
      this.scenarioSet = set.scenarioSet;
      for (const [id, line] of resultsById(readRunFolder(SCENARIO_RUN_FOLDER, path).lines)) this.results.set(id, line);
      for (const id of UNMARKED_SCENARIOS) {
        const line = this.results.get(id);
        if (!line) throw new Error(`${SCENARIO_RUN_FOLDER}: no results for ${id}`);
        for (const c of set.scenarioSet.scenarios.find((s) => s.id === id)?.criteria ?? []) if (c.check === 'human') delete line.criteria[c.id];
      }
    }
  }

  static async attach(page: Page, fixture: ItemFixture, options: ItemHostOptions = {}): Promise<FakeItemHost> {
    const path = ITEM_FIXTURE_FILES[fixture];
    const host = new FakeItemHost(page, path, loadFile(path, { displayName: relative(repoRoot, path) }), options);
    await page.exposeFunction(POST_BINDING, (message: ItemFromWebview) => host.receive(message));
    return host;
  }

  postedOf<T extends ItemFromWebview['type']>(type: T): Posted<T>[] {
    return this.posted.filter((m): m is Posted<T> => m.type === type);
  }

  sentOf<T extends ItemToWebview['type']>(type: T): Sent<T>[] {
    return this.sent.filter((m): m is Sent<T> => m.type === type);
  }

  // ── as itemSession.ts builds its messages ─────────────────────────────────────────────

  private info(): ItemFileInfo {
    return {
      file: this.loaded.file,
      kind: this.kind,
      kindLabel: KIND_LABEL[this.kind],
      container: this.loaded.container,
      detectionReason: this.loaded.detection.reason,
      records: this.loaded.records.length,
      problems: [],
    };
  }

  private itemList(): ItemListEntry[] {
    return this.items.map(({ id, item }) => {
      const entry: ItemListEntry = {
        id,
        label: itemLabel(item),
        review: this.reviewer
          ? reviewProgress(
              this.reviews.get(id),
              item.irrelevant_docs.map((d) => String(d.doc_id)),
              item.distractor_docs.map((d) => String(d.doc_id)),
            )
          : 'none',
      };
      if (!this.blind) entry.reviews = this.reviews.has(id) ? 1 : 0;
      return entry;
    });
  }

  private delegationState(): DelegationState {
    const current = this.items.find((r) => r.id === this.itemId) ?? this.items[0];
    this.itemId = current.id;
    const state: DelegationState = {
      items: this.itemList(),
      itemId: current.id,
      blind: this.blind,
      view: this.blind ? blindItemView(current.item) : fullItemView(current.item),
      sidecar: `${this.loaded.file}.audit.json`,
    };
    if (this.reviewer) state.reviewer = this.reviewer;
    const mine = this.reviews.get(current.id);
    if (mine) state.myReview = mine;
    if (!this.blind) state.reviews = mine ? [mine] : [];
    return state;
  }

  private reviewMessage(): Sent<'review'> {
    const id = this.itemId ?? '';
    const message: Sent<'review'> = { type: 'review', itemId: id, items: this.itemList() };
    const mine = this.reviews.get(id);
    if (mine) message.myReview = mine;
    if (!this.blind) message.reviews = mine ? [mine] : [];
    return message;
  }

  private scenarioState(): Sent<'scenarioState'>['state'] {
    const set = this.scenarioSet!;
    const score = scoreScenarios(set, this.results);
    const folder = relative(repoRoot, SCENARIO_RUN_FOLDER);
    return {
      runFolder: folder,
      resultsFile: `${folder}/results.jsonl`,
      resultsExists: true,
      manifest: 'present',
      notices: [],
      results: Object.fromEntries(
        [...this.results].map(([id, line]) => [
          id,
          { criteria: { ...line.criteria }, ...(line.silent_citations !== undefined ? { silent_citations: line.silent_citations } : {}) },
        ]),
      ),
      scores: score.scenarios,
      aMean: score.a_mean,
      gate: { passed: score.gate.passed, reasons: score.gate.reasons },
      changed: [...this.changed],
    };
  }

  private initPayload(): InitPayload {
    switch (this.kind) {
      case 'delegation':
        return { kind: 'delegation', state: this.delegationState() };
      case 'deepsearchqa':
        return { kind: 'deepsearchqa', rows: this.loaded.records.flatMap((r) => (r.kind === 'deepsearchqa' ? [dsqaRow(r.row)] : [])) };
      case 'clarify':
        return { kind: 'clarify', instances: this.loaded.records.flatMap((r) => (r.kind === 'clarify-instance' ? [clarifyView(r.instance)] : [])) };
      case 'scenarios':
        return { kind: 'scenarios', set: scenarioSetView(this.scenarioSet!), state: this.scenarioState() };
    }
  }

  private setResult(scenarioId: string, line: ResultLine | undefined): void {
    if (line) this.results.set(scenarioId, line);
    else this.results.delete(scenarioId);
    this.changed.add(scenarioId);
    void this.send({ type: 'scenarioState', state: this.scenarioState() });
  }

  private receive(message: ItemFromWebview): void {
    this.posted.push(message);
    try {
      this.handle(message);
    } catch (error) {
      void this.send({ type: 'error', message: error instanceof Error ? error.message : String(error) });
    }
  }

  private handle(message: ItemFromWebview): void {
    switch (message.type) {
      case 'ready':
        void this.send({ type: 'init', info: this.info(), payload: this.initPayload() });
        return;
      case 'selectItem':
        if (this.items.some((r) => r.id === message.itemId)) {
          this.itemId = message.itemId;
          void this.send({ type: 'delegation', state: this.delegationState() });
        }
        return;
      case 'setBlind':
        this.blind = message.blind;
        if (message.blind && !this.reviewer) this.reviewer = 'annotator-2';
        void this.send({ type: 'delegation', state: this.delegationState() });
        return;
      case 'askReviewer':
        // The provider's input box, answered.
        this.reviewer = 'annotator-2';
        void this.send({ type: 'delegation', state: this.delegationState() });
        return;
      case 'editReview': {
        // The provider's checks (itemEditorProvider.ts editReview).
        if (!this.blind) throw new Error('Judgments are recorded in blind review only: turn on "Blind review" first.');
        if (!this.reviewer) throw new Error('Set your reviewer name first ("Set name" in the review panel).');
        const item = this.items.find((r) => r.id === message.itemId)?.item;
        if (!item) throw new Error(`no item "${message.itemId}"`);
        const { irrelevant, distractor } = message.patch;
        if (irrelevant && !item.irrelevant_docs.some((d) => String(d.doc_id) === irrelevant.docId))
          throw new Error(`"${irrelevant.docId}" is not an irrelevant document of ${message.itemId}`);
        if (distractor && !item.distractor_docs.some((d) => String(d.doc_id) === distractor.docId))
          throw new Error(`"${distractor.docId}" is not a distractor document of ${message.itemId}`);
        const next = applyReviewPatch(this.reviews.get(message.itemId), this.reviewer, message.patch, new Date().toISOString());
        if (next) this.reviews.set(message.itemId, next);
        else this.reviews.delete(message.itemId);
        void this.send(this.reviewMessage());
        return;
      }
      case 'markCriterion': {
        const scenario = this.scenarioSet?.scenarios.find((s) => s.id === message.scenarioId);
        if (!scenario) throw new Error(`no scenario "${message.scenarioId}"`);
        if (!scenario.criteria.some((c) => c.id === message.criterionId))
          throw new Error(`"${message.criterionId}" is not a criterion of ${message.scenarioId}`);
        this.setResult(message.scenarioId, withCriterion(this.results.get(message.scenarioId), message.scenarioId, message.criterionId, message.value));
        return;
      }
      case 'setSilentCitations':
        if (message.value !== null && (!Number.isInteger(message.value) || message.value < 0)) throw new Error('Silent citations must be a whole number ≥ 0.');
        this.setResult(message.scenarioId, withSilentCitations(this.results.get(message.scenarioId), message.scenarioId, message.value));
        return;
      case 'chooseRunFolder':
      case 'openAsText':
        return;
      case 'log':
        if (message.level === 'error') this.errorLogs.push(message.message);
        return;
      default:
        return assertNever(message);
    }
  }

  private send(message: ItemToWebview): Promise<void> {
    this.sent.push(message);
    this.delivery = this.delivery.then(() =>
      this.page.evaluate((m) => (window as unknown as HarnessWindow).__harnessDeliver(m), message as unknown).catch(() => undefined),
    );
    return this.delivery;
  }
}

function assertNever(value: never): never {
  throw new Error(`unexpected webview message ${JSON.stringify(value)}`);
}
