// What the editor needs only after its first rows are on screen: the side panels and the
// @vscode-elements components (with Lit). App loads it with import() once that frame has been
// presented; esbuild, bundling without code splitting, keeps it in dist/webview.js as a module
// initialised at that call, so the page evaluates none of it before the first frame. Elements
// made earlier (the search field) are upgraded when their definitions run here.
import '../common/widgets';
export { OutlinePanel } from './outlinePanel';
export { RecordList } from './recordList';
export { AnnotationPanel } from './annotationPanel';
export { AuditPanel } from './auditPanel';
export { NuggetPanel } from './nuggetPanel';
