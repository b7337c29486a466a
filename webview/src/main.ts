// Webview entry: styles, web components, then the app. The host answers our 'ready' with 'init'.
import './styles.css';
import './widgets';
import { App } from './app';

function start(): void {
  const mount = document.getElementById('root') ?? document.body.appendChild(document.createElement('div'));
  mount.id = 'root';
  new App(mount);
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
else start();
