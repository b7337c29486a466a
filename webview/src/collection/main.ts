// Entry of the collection view (dist/webview-collection.js, src/extension/collection).
import '../common/styles.css';
import { startCollectionApp } from './collectionApp';
import { startWhenReady } from '../common/startWhenReady';

startWhenReady(startCollectionApp);
