// What the editor needs only after its first rows are on screen: the side panels and the
// @vscode-elements components (with Lit). It is a bundle of its own (dist/webview-panels.js,
// esbuild.mjs LAZY_WEBVIEW_BUNDLES) that App loads by URL once that frame has been presented, so
// the page neither tokenizes nor compiles it before the first rows. Elements made earlier (the
// search field) are upgraded when their definitions run here. The helpers it imports (dom,
// VirtualList, format) are stateless, so their copies in the two bundles do not diverge.
import '../common/widgets';
export { OutlinePanel } from './outlinePanel';
export { RecordList } from './recordList';
export { AnnotationPanel } from './annotationPanel';
export { AuditPanel } from './auditPanel';
export { NuggetPanel } from './nuggetPanel';
