// The compare view's fake extension host, in the test process: answers the webview in
// src/shared/compareProtocol.ts with a view model the host's own builder made (core
// buildCompareView over two trajectories), and parses every webview message with the protocol's
// schema as src/extension/compare/comparePanel.ts does. Every message both ways is recorded.
import type { Page } from '@playwright/test';
import { buildCompareView, type CompareSideInput, type CompareViewModel } from '../../../src/core/collections/compareView';
import { compareFromWebviewSchema, type CompareFromWebview, type CompareToWebview } from '../../../src/shared/compareProtocol';
import { POST_BINDING, type HarnessWindow } from './pageGlobals';

type Posted<T extends CompareFromWebview['type']> = Extract<CompareFromWebview, { type: T }>;

export class FakeCompareHost {
  readonly posted: CompareFromWebview[] = [];
  readonly sent: CompareToWebview[] = [];
  readonly errorLogs: string[] = [];
  /** Messages that failed the protocol's schema (there should be none). */
  readonly invalid: unknown[] = [];
  readonly view: CompareViewModel;
  private delivery: Promise<void> = Promise.resolve();

  private constructor(
    private readonly page: Page,
    a: CompareSideInput,
    b: CompareSideInput,
  ) {
    this.view = buildCompareView(a, b);
  }

  static async attach(page: Page, a: CompareSideInput, b: CompareSideInput): Promise<FakeCompareHost> {
    const host = new FakeCompareHost(page, a, b);
    await page.exposeFunction(POST_BINDING, (message: unknown) => host.receive(message));
    return host;
  }

  postedOf<T extends CompareFromWebview['type']>(type: T): Posted<T>[] {
    return this.posted.filter((m): m is Posted<T> => m.type === type);
  }

  private receive(raw: unknown): void {
    const parsed = compareFromWebviewSchema.safeParse(raw);
    if (!parsed.success) {
      this.invalid.push(raw);
      return;
    }
    const message = parsed.data;
    this.posted.push(message);
    if (message.type === 'log' && message.level === 'error') this.errorLogs.push(message.message);
    if (message.type === 'ready') void this.send({ type: 'init', view: this.view });
  }

  send(message: CompareToWebview): Promise<void> {
    this.sent.push(message);
    // In order, as VS Code delivers them.
    this.delivery = this.delivery.then(() =>
      this.page.evaluate((json) => (window as unknown as HarnessWindow).__harnessDeliver(JSON.parse(json)), JSON.stringify(message)).catch(() => undefined),
    );
    return this.delivery;
  }
}
