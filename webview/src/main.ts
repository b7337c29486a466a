// Webview entry: styles, web components, then the app. The host answers our 'ready' with 'init'.
// The benchmark-item view (src/extension/items) shares this bundle; its page carries
// <meta name="trajaudit-view" content="items">, which starts the item UI instead; the score report
// (src/extension/report) likewise carries content="report".
import './styles.css';
import './widgets';
import { App } from './app';
import { isItemViewPage, startItemApp } from './items/itemApp';
import { isReportPage, startReportApp } from './report/reportApp';

function start(): void {
  const mount = document.getElementById('root') ?? document.body.appendChild(document.createElement('div'));
  mount.id = 'root';
  if (isReportPage()) startReportApp(mount);
  else if (isItemViewPage()) startItemApp(mount);
  else new App(mount);
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
else start();
