// Entry of the compare view (dist/webview-compare.js, src/extension/compare).
import '../common/styles.css';
import { startCompareApp } from './compareApp';
import { startWhenReady } from '../common/startWhenReady';

startWhenReady(startCompareApp);
