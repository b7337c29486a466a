// Entry of the score report (dist/webview-report.js, src/extension/report), with Chart.js.
import './styles.css';
import './widgets';
import { startReportApp } from './report/reportApp';
import { startWhenReady } from './startWhenReady';

startWhenReady(startReportApp);
