// Stage-C pre-checks in the real VS Code: the leaky sample item gets diagnostics in the Problems
// panel, on the JSON locations of the problems; a clean item gets none.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateExtension, assertSampleExists, closeAllEditors, waitFor } from './helpers.js';

const SOURCE = 'trajaudit stage-c';

function stageC(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === SOURCE);
}

suite('Stage-C pre-checks in the Problems panel', () => {
  suiteSetup(async () => {
    await activateExtension();
  });
  teardown(async () => {
    await closeAllEditors();
  });

  test('opening leaky-item.json shows its pre-check problems at their JSON locations', async () => {
    const uri = await assertSampleExists('items/delegation/leaky-item.json');
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: false });
    const diagnostics = await waitFor(() => (stageC(uri).length >= 3 ? stageC(uri) : undefined), { message: 'stage-c diagnostics on leaky-item.json' });
    const text = document.getText();
    const byCode = (code: string) => diagnostics.filter((d) => d.code === code);

    const leak = byCode('shortcut_leakage').find((d) => d.severity === vscode.DiagnosticSeverity.Error);
    assert.ok(leak, 'shortcut leakage is an error');
    assert.equal(document.getText(leak.range), '16.1 percent', 'the range is the answer copied into the query');
    assert.ok(document.lineAt(leak.range.start.line).text.includes('"query"'));

    const structure = byCode('distractor_structure').find((d) => /conflict_hint is missing/.test(d.message));
    assert.ok(structure, 'the missing conflict_hint is reported');
    assert.equal(structure.severity, vscode.DiagnosticSeverity.Error);
    const objectStart = text.indexOf('"doc_id": "d06"');
    assert.ok(
      document.offsetAt(structure.range.start) < objectStart && document.offsetAt(structure.range.end) <= objectStart,
      'points at the distractor d06 object',
    );

    const self = byCode('self_reference').find((d) => d.severity === vscode.DiagnosticSeverity.Error);
    assert.ok(self, 'the self-referential phrase is reported');
    assert.equal(document.getText(self.range), 'synthetic document');
  });

  test('the command returns the same findings; a clean item has no pre-check error', async () => {
    const leaky = await assertSampleExists('items/delegation/leaky-item.json');
    const findings = await vscode.commands.executeCommand<{ check: string; severity: string }[]>('trajaudit.harness.precheckItems', leaky);
    assert.ok(findings && findings.filter((f) => f.severity === 'error').length >= 3);
    const clean = await assertSampleExists('items/delegation/deleg-en-0231-oil-fund-equity-gap.json');
    const none = await vscode.commands.executeCommand<{ severity: string }[]>('trajaudit.harness.precheckItems', clean);
    assert.deepEqual(
      none?.filter((f) => f.severity === 'error'),
      [],
    );
    assert.equal(stageC(clean).filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length, 0);
  });

  test('the harness commands are registered', async () => {
    const all = await vscode.commands.getCommands(true);
    for (const id of [
      'trajaudit.harness.precheckItems',
      'trajaudit.harness.delegation',
      'trajaudit.harness.stageC',
      'trajaudit.harness.clarify',
      'trajaudit.harness.runAgent',
      'trajaudit.resumeWithRepair',
    ]) {
      assert.ok(all.includes(id), `${id} is registered`);
    }
  });
});
