// Entry of the benchmark-item views (dist/webview-items.js, src/extension/items).
import '../common/styles.css';
import '../common/widgets';
import { startItemApp } from './itemApp';
import { startWhenReady } from '../common/startWhenReady';

startWhenReady(startItemApp);
