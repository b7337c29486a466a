// Entry of the score report (dist/webview-report.js, src/extension/report), with Chart.js.
import '../common/styles.css';
import '../common/widgets';
import { startReportApp } from './reportApp';
import { startWhenReady } from '../common/startWhenReady';

startWhenReady(startReportApp);
