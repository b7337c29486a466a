// Entry of the trajectory editor (dist/webview.js). Each view has its own bundle so the
// editor's page does not download and parse the item views, the report or Chart.js:
// webview/src/items/main.ts (dist/webview-items.js) and reportMain.ts (dist/webview-report.js).
// The side panels and the @vscode-elements components are loaded after the first paint (panels.ts).
import '../common/markBundleStart';
import '../common/styles.css';
import { App } from './app';
import { startWhenReady } from '../common/startWhenReady';

startWhenReady((mount) => new App(mount));
