import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { ESLint } from 'eslint';

const ROOT = join(__dirname, '..', '..', '..');
// Only the boundary rule runs: the tests read its messages alone, and the other rules' passes over
// webview/ and src/shared took two thirds of the lint (`npm run lint` runs them all).
const BOUNDARY_RULE = '@typescript-eslint/no-restricted-imports';
const eslint = new ESLint({ cwd: ROOT, ruleFilter: ({ ruleId }) => ruleId === BOUNDARY_RULE });

/** The import-boundary messages eslint.config.mjs gives one line of code placed at `file`. */
async function restricted(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, file) });
  return result.messages.filter((m) => m.ruleId === BOUNDARY_RULE).map((m) => m.message);
}

describe('lint: import boundaries (eslint.config.mjs)', function () {
  this.timeout(60_000);

  it('src/core and src/cli never import vscode at run time (types are fine)', async () => {
    assert.equal((await restricted('src/core/view/probe.ts', "import * as vscode from 'vscode';\nvoid vscode;")).length, 1);
    assert.equal((await restricted('src/cli/probe.ts', "import { window } from 'vscode';\nvoid window;")).length, 1);
    assert.deepEqual(await restricted('src/core/view/probe.ts', "import type * as vscode from 'vscode';\nexport type W = typeof vscode;"), []);
  });

  it('webview/ imports from src/ only src/shared/** and the named pure core modules', async () => {
    for (const code of [
      "import { countTrajectory } from '../../src/core/stats/statistics';",
      "import type { Sidecar } from '../../src/core/sidecar/schema';",
      "import { toolNames } from '../../src/extension/activeFile';",
      "import * as vscode from 'vscode';",
      "import { readFileSync } from 'node:fs';",
    ])
      assert.equal((await restricted('webview/src/probe.ts', code)).length, 1, code);
    assert.equal((await restricted('webview/src/report/probe.mts', "import { loadText } from '../../../src/core/load/loadFile';")).length, 1);
    for (const code of [
      "import { newestAudit } from '../../src/core/audit/newest';",
      "import { causeVerdict } from '../../src/core/audit/verdicts';",
      "import { ROOT_CAUSES } from '../../src/core/model/rootCauses';",
      "import { toolKind } from '../../src/core/stats/toolKinds';",
      "import type { RecordView } from '../../src/shared/protocol';",
    ])
      assert.deepEqual(await restricted('webview/src/probe.ts', code), [], code);
  });

  it('src/shared imports core types freely but run-time code only from the named modules; those import only each other', async () => {
    assert.equal((await restricted('src/shared/probe.ts', "import { loadText } from '../core/load/loadFile';")).length, 1);
    assert.deepEqual(await restricted('src/shared/probe.ts', "import type { LoadedFile } from '../core/load/loadFile';"), []);
    assert.deepEqual(await restricted('src/shared/probe.ts', "import { normalizeRootCause } from '../core/model/rootCauses';"), []);
    assert.equal((await restricted('src/core/audit/verdicts.ts', "import { tokenCount } from '../stats/tokens';")).length, 1);
    assert.deepEqual(await restricted('src/core/audit/verdicts.ts', "import { normalizeRootCause } from '../model/rootCauses';"), []);
  });

  it('the webview, src/shared and the named core modules keep the boundaries', async () => {
    const results = await eslint.lintFiles([
      'webview',
      'src/shared',
      'src/core/audit/newest.ts',
      'src/core/audit/verdicts.ts',
      'src/core/model/rootCauses.ts',
      'src/core/stats/toolKinds.ts',
    ]);
    const broken = results.flatMap((r) => r.messages.filter((m) => m.ruleId === BOUNDARY_RULE).map((m) => `${r.filePath}:${m.line}: ${m.message}`));
    assert.deepEqual(broken, []);
  });
});
