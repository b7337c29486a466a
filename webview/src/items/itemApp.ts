// The benchmark-item view (Delegation items, DeepSearchQA, Clarify-Then-Search, scenario sets).
// Started by itemsMain.ts (dist/webview-items.js), the bundle of item pages.
import './items.css';
import { html, render } from 'lit';
import { el } from '../common/dom';
import type { ItemFileInfo, ItemToWebview } from '../../../src/shared/itemProtocol';
import { connectItemHost, type ItemHostLink } from './itemHost';
import type { VsCodeApi } from '../common/hostLink';
import { chip } from './common';
import { DelegationView } from './delegationView';
import { DsqaView } from './dsqaView';
import { ClarifyView } from './clarifyView';
import { ScenarioView } from './scenarioView';

interface ViewLike {
  readonly root: HTMLElement;
  onMessage?(msg: ItemToWebview): void;
}

/** Persisted UI state of the item view (per panel): never item content or judgments. */
export interface ItemUiState {
  v: 1;
  itemId?: string;
  scenarioId?: string;
  humanOnly?: boolean;
  dsqa?: { q?: string; category?: string; type?: string };
  clarify?: { q?: string };
}

export class ItemApp {
  private readonly frame: HTMLElement;
  private readonly header: HTMLElement;
  private readonly tools: HTMLElement;
  private readonly banner: HTMLElement;
  private readonly body: HTMLElement;
  private view: ViewLike | undefined;
  readonly ui: ItemUiState;

  constructor(
    private readonly mount: HTMLElement,
    readonly host: ItemHostLink,
  ) {
    const saved = host.getState<ItemUiState>();
    this.ui = saved && saved.v === 1 ? saved : { v: 1 };
    this.header = el('header', { className: 'ia-header' });
    this.tools = el('div', { className: 'ia-tools' });
    this.banner = el('div', { className: 'ia-banner', attrs: { role: 'alert', hidden: true } });
    this.body = el('div', { className: 'ia-body' });
    this.frame = el('div', { className: 'ia-app', children: [this.header, this.banner, this.body] });
    this.body.append(el('div', { className: 'ia-loading', text: 'Loading…' }));
    mount.replaceChildren(this.frame);
    host.onMessage((msg) => this.onMessage(msg));
  }

  saveUi(patch: Partial<ItemUiState>): void {
    Object.assign(this.ui, patch);
    this.host.setState(this.ui);
  }

  showError(message: string): void {
    this.banner.hidden = false;
    render(
      html`<span class="ia-banner-icon">⚠</span><span class="ia-banner-text">${message}</span
        ><button class="ia-tb ia-banner-close" type="button" title="Dismiss" @click=${() => (this.banner.hidden = true)}>✕</button>`,
      this.banner,
    );
  }

  /** Toolbar slot for the current view's buttons. */
  get toolbar(): HTMLElement {
    return this.tools;
  }

  private renderHeader(info: ItemFileInfo): void {
    const name = info.file.split(/[\\/]/).pop() ?? info.file;
    render(
      html`<div class="ia-title">
          <span class="ia-file" title=${info.file}>${name}</span>${chip(
            `${info.kindLabel} · ${info.container}`,
            'ia-chip-kind',
            `Detected by content: ${info.detectionReason}`,
          )}<span class="ia-count muted">${`${info.records} ${info.records === 1 ? 'record' : 'records'}`}</span>
        </div>
        <div class="ia-header-right">
          ${this.tools}<button
            class="ia-tb ia-tb-secondary"
            type="button"
            title="Open the file in the text editor"
            @click=${() => this.host.post({ type: 'openAsText' })}
          >Open as Text</button>
        </div>`,
      this.header,
    );
    const notes: string[] = [];
    if (info.readOnlyReason) notes.push(info.readOnlyReason);
    if (info.problems.length)
      notes.push(`${info.problems.length} record(s) could not be loaded: ${info.problems.slice(0, 3).join(' · ')}${info.problems.length > 3 ? ' …' : ''}`);
    if (notes.length) this.showError(notes.join('  —  '));
  }

  private onMessage(msg: ItemToWebview): void {
    if (msg.type === 'error') {
      this.showError(msg.message);
      return;
    }
    if (msg.type === 'init') {
      this.tools.replaceChildren();
      this.renderHeader(msg.info);
      const p = msg.payload;
      switch (p.kind) {
        case 'delegation':
          this.view = new DelegationView(this, msg.info, p.state);
          break;
        case 'deepsearchqa':
          this.view = new DsqaView(this, p.rows);
          break;
        case 'clarify':
          this.view = new ClarifyView(this, p.instances);
          break;
        case 'scenarios':
          this.view = new ScenarioView(this, msg.info, p.set, p.state);
          break;
      }
      this.body.replaceChildren(this.view.root);
      this.frame.dataset.kind = p.kind;
      return;
    }
    this.view?.onMessage?.(msg);
  }
}

/** Starts the item UI in `root`. `api` is the page's VS Code API object (acquired here when absent). */
export function startItemApp(root: HTMLElement, api?: VsCodeApi): ItemApp {
  const host = connectItemHost(api);
  const app = new ItemApp(root, host);
  host.post({ type: 'ready' });
  return app;
}
