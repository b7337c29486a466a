// The score report's pure parts (scoring with per-case rows, src/core/scoring/report: the view
// model, the exports). The panel and the command are tested in real VS Code (test/integration/suite/report.test.ts).
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ROOT_CAUSES } from '../../../src/core/model/rootCauses';
import type { StructuredModel } from '../../../src/core/scoring/judges/llm';
import { contractJson, renderMarkdown } from '../../../src/core/scoring/render';
import { judgingNeeds, scoreRunFolder, scoreRunFolderSync } from '../../../src/core/scoring/scoreRunFolder';
import { csvField, csvFor, csvText, exportText, jsonFor } from '../../../src/core/scoring/report/reportExports';
import { buildReportModel, histogram, pct } from '../../../src/core/scoring/report/reportModel';
import type { BarChartSpec, HeatmapSpec, ReportModel } from '../../../src/shared/reportProtocol';
import { runCli, tempDir } from '../helpers';

const ROOT = join(__dirname, '../../..');
const RUNS = join(ROOT, 'samples/runs');
const TRAJECTORIES = join(ROOT, 'samples/trajectories');
const FOLDERS = ['audit-gold-pred', 'deepsearchqa-run', 'delegation-run', 'nuggets-run', 'scenarios-run'].map((n) => join(RUNS, n));
const context = { folderLabel: 'x', judgeMode: { model: false, text: 'deterministic' }, createdAt: '2026-01-01T00:00:00Z' };

/** A flat folder of the sample trajectories that have sidecars, with their sidecars. */
function trajectoriesWithSidecars(): string {
  const dir = tempDir('trajaudit-report-');
  for (const sub of readdirSync(TRAJECTORIES)) {
    const folder = join(TRAJECTORIES, sub);
    for (const name of readdirSync(folder)) {
      if (!name.endsWith('.audit.json')) continue;
      copyFileSync(join(folder, name), join(dir, name));
      copyFileSync(join(folder, name.slice(0, -'.audit.json'.length)), join(dir, name.slice(0, -'.audit.json'.length)));
    }
  }
  return dir;
}

/** Passes every rubric (the repair-rubric prompt says how many there are). */
class PassingGrader implements StructuredModel {
  calls = 0;
  async complete<T>(request: { user: string }): Promise<{ value: T }> {
    this.calls++;
    const n = Number(/Rubrics \((\d+)\):/.exec(request.user)?.[1]);
    assert.ok(n > 0, 'the rubric count is in the prompt');
    return { value: { grades: Array.from({ length: n }, (_, i) => ({ rubric: i + 1, pass: true })) } as T };
  }
}

function chart<T extends 'bar' | 'heatmap'>(model: ReportModel, id: string): T extends 'bar' ? BarChartSpec : HeatmapSpec {
  const found = model.sections.flatMap((s) => s.charts).find((c) => c.id === id);
  assert.ok(found, `chart ${id}`);
  return found as never;
}

function table(model: ReportModel, id: string) {
  const found = model.sections.flatMap((s) => s.tables).find((t) => t.id === id);
  assert.ok(found, `table ${id}`);
  return found;
}

/** Answers every rubric-grader request with output that is not the required format. */
class MalformedGrader implements StructuredModel {
  calls = 0;
  async complete<T>(): Promise<{ value: T }> {
    this.calls++;
    return { value: { verdict: 'looks fine' } as T };
  }
}

describe('score report: scoring with per-case rows', () => {
  for (const folder of [...FOLDERS, TRAJECTORIES]) {
    it(`${basename(folder)}: per-case rows for audit runs only`, () => {
      const result = scoreRunFolderSync(folder);
      assert.equal(result.cases !== undefined, result.score.kind === 'audit');
    });
  }

  it('a grader that fails on malformed output: the report says so, as trajaudit score does', async () => {
    // The report once scored audit runs by a copy of scoreRunFolder that dropped this note.
    const grader = new MalformedGrader();
    const result = await scoreRunFolder(trajectoriesWithSidecars(), { model: grader });
    assert.ok(grader.calls > 0);
    assert.equal(result.judging.failed, 3);
    assert.ok(
      result.notes.some((n) => n.startsWith('3 judgment(s) failed (malformed judge output')),
      result.notes.join('\n'),
    );
    assert.ok(result.cases && result.score.kind === 'audit');
    assert.equal(result.cases.filter((c) => c.repair === 'ungraded').length, result.score.counts.ungraded_repairs);
  });

  it('audit gold/predictions: one row per gold case, a missing prediction is a miss, repair grades from the file', () => {
    const result = scoreRunFolderSync(join(RUNS, 'audit-gold-pred'));
    const cases = result.cases;
    assert.ok(cases && result.score.kind === 'audit');
    assert.equal(cases.length, result.score.n);
    assert.equal(cases.filter((c) => c.strict).length / cases.length, result.score.metrics.cs_strict);
    assert.equal(cases.filter((c) => c.loose).length / cases.length, result.score.metrics.cs_loose);
    assert.equal(cases.filter((c) => c.sound).length, result.score.counts.sound_diagnoses);
    assert.equal(cases.filter((c) => c.repair === 'pass').length, result.score.counts.repairs_passed);
    assert.equal(cases.filter((c) => !c.predicted).length, result.score.counts.missing_predictions);
    const first = cases.find((c) => c.id === 'sab-0126');
    assert.deepEqual([first?.strict, first?.sound, first?.repair], [true, true, 'pass']);
    assert.ok(
      cases.every((c) => c.file === undefined),
      'gold/prediction files have no trajectories to link',
    );
  });

  it('sidecars: rows carry the trajectory file and record; ungraded repairs without a model', () => {
    const result = scoreRunFolderSync(TRAJECTORIES);
    const cases = result.cases;
    assert.ok(cases && result.score.kind === 'audit');
    assert.equal(cases.length, result.score.n);
    for (const c of cases) {
      assert.ok(c.file && existsSync(c.file), `${c.id}: trajectory file`);
      assert.equal(c.id, `${c.file.slice(TRAJECTORIES.length + 1)}#${c.record}`);
      assert.ok(c.gold.position !== undefined && c.gold.position >= 0 && c.gold.position <= 1);
    }
    assert.equal(cases.filter((c) => c.repair === 'ungraded').length, result.score.counts.ungraded_repairs);
    assert.equal(judgingNeeds(result).needsModel, 3);
  });

  it('sidecars with a model: the rubric grader verdicts land in the rows', async () => {
    const folder = trajectoriesWithSidecars();
    const grader = new PassingGrader();
    const graded = await scoreRunFolder(folder, { model: grader });
    assert.equal(grader.calls, 3);
    assert.ok(graded.cases);
    assert.equal(graded.cases.filter((c) => c.repair === 'pass').length, 3);
    assert.equal(graded.score.kind === 'audit' && graded.score.counts.repairs_passed, 3);
    assert.ok(graded.cases.filter((c) => c.repair === 'pass').every((c) => c.grades?.every(Boolean)));
    // The verdicts were cached: a deterministic pass now finds them.
    const again = scoreRunFolderSync(folder);
    assert.equal(again.judging.cached, 3);
    assert.deepEqual(
      again.cases?.map((c) => c.repair),
      graded.cases.map((c) => c.repair),
    );
    assert.equal(judgingNeeds(again).needsModel, 0);
  });

  it('an aborted model pass rejects (cancel)', async () => {
    const dir = trajectoriesWithSidecars();
    const controller = new AbortController();
    controller.abort();
    const slow: StructuredModel = { complete: () => new Promise(() => undefined) };
    await assert.rejects(scoreRunFolder(dir, { model: slow, signal: controller.signal }), (e: Error) => e.name === 'AbortError');
  });
});

describe('score report: view model', () => {
  it('audit: figures, per-class F1 bars, confusion heat map and case rows match the score', () => {
    const result = scoreRunFolderSync(join(RUNS, 'audit-gold-pred'));
    const { model, links } = buildReportModel(result, context);
    assert.ok(result.score.kind === 'audit');
    const s = result.score;
    assert.equal(model.kind, 'audit');
    assert.equal(model.reason, 'no manifest; found gold.jsonl and predictions.jsonl');
    const figures = Object.fromEntries(model.sections[0].figures?.map((f) => [f.label, f.text]) ?? []);
    assert.deepEqual(figures, {
      'CS-Strict': '46.15%',
      'CS-Loose': '76.92%',
      'RC-Acc': '76.92%',
      'RC-F1': '80.00%',
      Diag: '61.54%',
      'Rep@Diag': '62.50%',
      FPS: '38.46%',
    });
    const f1 = chart<'bar'>(model, 'chart-per-class-f1');
    assert.deepEqual(
      f1.series[0].values,
      ROOT_CAUSES.map((c) => s.per_class[c].f1),
    );
    assert.equal(f1.tableId, 'audit-per-class');
    table(model, f1.tableId);
    const heat = chart<'heatmap'>(model, 'chart-confusion');
    assert.deepEqual(
      heat.values,
      ROOT_CAUSES.map((g) => [...ROOT_CAUSES, 'none' as const].map((p) => s.confusion[g][p])),
    );
    assert.equal(
      heat.values.flat().reduce((a, b) => a + b, 0),
      s.n - s.counts.gold_without_root_cause,
    );
    // No positions in these gold lines: no histogram.
    assert.equal(
      model.sections.flatMap((x) => x.charts).some((c) => c.id === 'chart-positions'),
      false,
    );
    assert.equal(table(model, 'audit-cases').rows.length, 13);
    assert.equal(links.size, 0);
    assert.deepEqual(
      model.exports.map((e) => e.format),
      ['md', 'json', 'csv'],
    );
  });

  it('audit from sidecars: step links to gold and predicted steps, position histogram', () => {
    const result = scoreRunFolderSync(TRAJECTORIES);
    const { model, links } = buildReportModel(result, context);
    const cases = result.cases;
    assert.ok(cases);
    const rows = table(model, 'audit-cases').rows;
    assert.equal(rows.length, cases.length);
    rows.forEach((row, i) => {
      const gold = links.get(row[1].link as string);
      assert.ok(gold, `row ${i}: gold step link`);
      assert.deepEqual([gold.file, gold.record, gold.position], [cases[i].file, cases[i].record, cases[i].gold.step]);
      if (cases[i].predicted?.step !== undefined) {
        const predicted = links.get(row[4].link as string);
        assert.equal(predicted?.position, cases[i].predicted?.step);
      } else assert.equal(row[4].link, undefined);
    });
    const h = chart<'bar'>(model, 'chart-positions');
    assert.equal(
      h.series[0].values.reduce((a, b) => (a ?? 0) + (b ?? 0), 0),
      cases.length,
    );
    assert.equal(
      h.series[1].values.reduce((a, b) => (a ?? 0) + (b ?? 0), 0),
      cases.filter((c) => c.predicted?.step !== undefined).length,
    );
    assert.ok(h.references?.[0].axis === 'category');
  });

  it('deepsearchqa: category shares with their Wilson intervals', () => {
    const result = scoreRunFolderSync(join(RUNS, 'deepsearchqa-run'));
    assert.ok(result.score.kind === 'deepsearchqa');
    const s = result.score;
    const { model } = buildReportModel(result, context);
    const c = chart<'bar'>(model, 'chart-dsqa-categories');
    assert.deepEqual(c.series[0].values, [s.metrics.fully_correct, s.metrics.fully_incorrect, s.metrics.partially_correct, s.metrics.correct_with_extraneous]);
    assert.deepEqual(c.series[0].intervals, [s.ci95.fully_correct, s.ci95.fully_incorrect, s.ci95.partially_correct, s.ci95.correct_with_extraneous]);
    assert.equal(model.sections[0].figures?.[0].text, pct(s.metrics.f1));
    assert.equal(table(model, 'dsqa-items').rows.length, s.per_item.length);
  });

  it('nuggets: restore-score histogram per condition covers every instance', () => {
    const result = scoreRunFolderSync(join(RUNS, 'nuggets-run'));
    assert.ok(result.score.kind === 'nuggets');
    const s = result.score;
    const { model } = buildReportModel(result, context);
    const d = chart<'bar'>(model, 'chart-nuggets-distribution');
    assert.deepEqual(
      d.series.map((x) => x.label),
      Object.keys(s.conditions),
    );
    d.series.forEach((x) =>
      assert.equal(
        x.values.reduce((a, b) => (a ?? 0) + (b ?? 0), 0),
        s.conditions[x.label].n,
      ),
    );
    const imp = chart<'bar'>(model, 'chart-nuggets-improvement');
    assert.deepEqual(
      imp.series[0].intervals,
      Object.values(s.improvement).map((v) => v.ci95),
    );
  });

  it('scenarios: A/B bars with the gate lines, dimension scores', () => {
    const result = scoreRunFolderSync(join(RUNS, 'scenarios-run'));
    assert.ok(result.score.kind === 'scenarios');
    const s = result.score;
    const { model } = buildReportModel(result, context);
    const ab = chart<'bar'>(model, 'chart-scenarios');
    assert.deepEqual(
      ab.series[0].values,
      Object.values(s.scenarios).map((v) => v.a),
    );
    assert.deepEqual(
      ab.series[1].values,
      Object.values(s.scenarios).map((v) => v.b),
    );
    assert.deepEqual(
      ab.references?.map((r) => r.at),
      [90, 85],
    );
    assert.deepEqual(chart<'bar'>(model, 'chart-dimensions').series[0].values, Object.values(s.dimensions));
    assert.equal(model.sections[0].figures?.find((f) => f.label === 'Gate')?.text, s.gate.passed ? 'PASSED' : 'FAILED');
  });

  it('every chart names an existing table (its accessible equivalent), every kind', () => {
    for (const folder of [...FOLDERS, TRAJECTORIES]) {
      const result = scoreRunFolderSync(folder);
      const { model } = buildReportModel(result, context);
      const tables = new Set(model.sections.flatMap((s) => s.tables.map((t) => t.id)));
      assert.equal(tables.size, model.sections.flatMap((s) => s.tables).length, 'table ids are unique');
      for (const c of model.sections.flatMap((s) => s.charts)) assert.ok(tables.has(c.tableId), `${c.id} → ${c.tableId}`);
      for (const t of model.sections.flatMap((s) => s.tables)) for (const r of t.rows) assert.equal(r.length, t.head.length, `${t.id}: row width`);
    }
  });

  it('histogram: equal bins over [lo, hi], the top value in the last bin', () => {
    assert.deepEqual(histogram([0, 0.05, 0.1, 0.5, 0.999, 1], 10), [2, 1, 0, 0, 0, 1, 0, 0, 0, 2]);
    assert.deepEqual(histogram([0, 50, 100], 4, 0, 100), [1, 0, 1, 1]);
  });
});

describe('score report: exports', () => {
  for (const folder of FOLDERS) {
    it(`${basename(folder)}: JSON is byte for byte what trajaudit score --json prints`, async () => {
      const result = scoreRunFolderSync(folder);
      const cli = await runCli(['score', folder, '--json']);
      assert.equal(jsonFor(result), `${cli.out}\n`);
      assert.deepEqual(JSON.parse(exportText('json', result)), contractJson(scoreRunFolderSync(folder).score));
    });
  }

  it('Markdown is the CLI report', () => {
    const folder = join(RUNS, 'scenarios-run');
    const result = scoreRunFolderSync(folder);
    assert.equal(exportText('md', result), renderMarkdown(scoreRunFolderSync(folder)));
  });

  it('CSV: one row per case / item / instance / scenario, with a header', () => {
    const rows = (folder: string) => {
      const result = scoreRunFolderSync(folder);
      return csvFor(result).trimEnd().split('\r\n');
    };
    const audit = rows(join(RUNS, 'audit-gold-pred'));
    assert.equal(audit.length, 14);
    assert.ok(audit[0].startsWith('case,trajectory_file,record,gold_step'));
    assert.ok(audit[1].startsWith('sab-0126,,,38,36,40,candidate_mismanagement,'));
    assert.equal(rows(join(RUNS, 'deepsearchqa-run')).length, 13);
    const sidecars = rows(TRAJECTORIES);
    assert.ok(sidecars[1].startsWith('anthropic/baltic-chamber-opera.traj.json#0,anthropic/baltic-chamber-opera.traj.json,0,5,5,9,'), sidecars[1]);
    const nuggets = scoreRunFolderSync(join(RUNS, 'nuggets-run'));
    assert.ok(nuggets.score.kind === 'nuggets');
    assert.equal(rows(join(RUNS, 'nuggets-run')).length, nuggets.score.per_instance.length + 1);
  });

  it('CSV fields: quoting, formulas neutralized, numbers without float noise', () => {
    assert.equal(csvField('a,b'), '"a,b"');
    assert.equal(csvField('say "hi"'), '"say ""hi"""');
    assert.equal(csvField('line\nbreak'), '"line\nbreak"');
    assert.equal(csvField('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`);
    assert.equal(csvField('+1'), "'+1");
    assert.equal(csvField(-1.5), '-1.5');
    assert.equal(csvField(0.1 + 0.2), '0.3');
    assert.equal(csvField(undefined), '');
    assert.equal(csvField(true), 'true');
    assert.equal(csvText(['a'], [[1]]), 'a\r\n1\r\n');
  });

  it('the sample run folders are not written to by the deterministic pass', () => {
    for (const folder of FOLDERS) {
      const before = readdirSync(folder).map((n) => [n, readFileSync(join(folder, n), 'utf8')]);
      scoreRunFolderSync(folder);
      assert.deepEqual(
        readdirSync(folder).map((n) => [n, readFileSync(join(folder, n), 'utf8')]),
        before,
      );
    }
  });
});
