// Registers the @vscode-elements web components the UI uses (side effects only). Components
// render in shadow roots styled through adoptedStyleSheets (allowed by the webview CSP); no
// component here renders trajectory text as HTML. The trajectory editor loads this after its
// first rows are on screen (editor/panels.ts): an element made earlier by the factories in
// widgetFactories.ts is upgraded when its definition comes.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-radio/index.js';
import '@vscode-elements/elements/dist/vscode-radio-group/index.js';
import '@vscode-elements/elements/dist/vscode-collapsible/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
export * from './widgetFactories';
