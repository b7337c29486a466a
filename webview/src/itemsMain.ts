// Entry of the benchmark-item views (dist/webview-items.js, src/extension/items).
import './styles.css';
import './widgets';
import { startItemApp } from './items/itemApp';
import { startWhenReady } from './startWhenReady';

startWhenReady(startItemApp);
