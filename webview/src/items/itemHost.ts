// The item view's link to the extension host (webview/src/common/hostLink.ts).
import type { ItemFromWebview, ItemToWebview } from '../../../src/shared/itemProtocol';
import { HostLink, type VsCodeApi } from '../common/hostLink';

export type ItemHostLink = HostLink<ItemFromWebview, ItemToWebview>;

export function connectItemHost(api?: VsCodeApi): ItemHostLink {
  return new HostLink<ItemFromWebview, ItemToWebview>('item view', api);
}
