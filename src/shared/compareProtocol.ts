// The typed message protocol between the compare view's host (src/extension/compare) and its
// webview (webview/src/compare). The webview's messages are zod schemas, parsed by the host (a
// page could post anything); their types come from the schemas. The host's messages are types:
// the webview imports this file for its types only, so zod does not enter its bundle.
// The view model names files as the user reads them (workspace-relative); opening a step names
// a side and a position, and the host looks the file and record up.
import { z } from 'zod';
import type { CompareViewModel } from '../core/collections/compareView';

export type { CompareAuditLabel, CompareHumanLabel, CompareRow, CompareSide, CompareStep, CompareViewModel } from '../core/collections/compareView';

/** Host → webview. */
export type CompareToWebview =
  /** The whole view: sent on every `ready` (a hidden webview is torn down and comes back). */
  { type: 'init'; view: CompareViewModel } | { type: 'status'; text: string; kind: 'info' | 'error' };

const text = z.string().max(10_000);
const position = z.number().int().nonnegative();

/** Webview → host, parsed by the host. */
export const compareFromWebviewSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  /** Open one side's step in the trajectory editor. */
  z.object({ type: z.literal('open'), side: z.enum(['a', 'b']), position }),
  /** After the first render: the alignment's rows the page lays out, and the row elements in side a's DOM (virtualized: a screenful) (tests, diagnostics). */
  z.object({ type: z.literal('rendered'), rows: z.number().int().nonnegative(), domRows: z.number().int().nonnegative() }),
  z.object({ type: z.literal('cspViolation'), directive: text, blocked: text, sample: text }),
  z.object({ type: z.literal('log'), level: z.enum(['info', 'error']), message: text }),
]);

export type CompareFromWebview = z.infer<typeof compareFromWebviewSchema>;

/** The page's saved UI state (VS Code's webview state): where the user was, never content. */
export interface CompareViewState {
  selectedRow?: number;
  scrollTop?: number;
}
