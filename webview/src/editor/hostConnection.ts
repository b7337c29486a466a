// The trajectory editor's link to the extension host (webview/src/common/hostLink.ts).
import type { EditorReplies, FromWebview, ToWebview } from '../../../src/shared/protocol';
import { HostLink } from '../common/hostLink';

export type HostConnection = HostLink<FromWebview, ToWebview, EditorReplies>;

export function connectEditorHost(): HostConnection {
  return new HostLink<FromWebview, ToWebview, EditorReplies>('webview');
}
