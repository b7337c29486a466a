// The item view's link to the extension host: typed posts and a listener. The VS Code API object
// can be acquired once per page, so startItemApp takes it from the caller when there is one.
import type { ItemFromWebview, ItemToWebview } from '../../../src/shared/itemProtocol';

export interface VsCodeApiLike {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApiLike;

export class ItemHostLink {
  private readonly listeners: ((msg: ItemToWebview) => void)[] = [];

  constructor(private readonly api: VsCodeApiLike = acquireVsCodeApi()) {
    window.addEventListener('message', (ev: MessageEvent) => {
      const data = ev.data as { type?: unknown } | null;
      if (!data || typeof data !== 'object' || typeof data.type !== 'string') return;
      for (const listener of this.listeners) {
        try {
          listener(data as ItemToWebview);
        } catch (err) {
          console.error(err);
          this.post({ type: 'log', level: 'error', message: `item view: ${String((err as Error)?.stack ?? err)}` });
        }
      }
    });
  }

  post(message: ItemFromWebview): void {
    this.api.postMessage(message);
  }

  onMessage(listener: (msg: ItemToWebview) => void): void {
    this.listeners.push(listener);
  }

  /** UI state only (selection, filters): never item content or judgments. */
  getState<T>(): T | undefined {
    return (this.api.getState() as T | undefined) ?? undefined;
  }

  setState<T>(state: T): void {
    this.api.setState(state);
  }
}
