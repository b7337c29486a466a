// Dev only: fixtures for the item-view harness, computed by the real host-side builders from the
// sample files (plus a hostile Delegation item). Run with tsx; prints one JSON object.
//   npx tsx test/webview-harness/items-fixtures.ts > fixtures.json
import { join } from 'node:path';
import { loadFile, loadText, type LoadedFile } from '../../src/core/load/loadFile';
import { scoreScenarios } from '../../src/core/scoring/scenarios';
import { blindItemView, clarifyView, dsqaRow, fullItemView, itemLabel, scenarioSetView } from '../../src/extension/items/itemViews';
import { readRunFolder, resultsById } from '../../src/extension/items/runFolder';
import type { DelegationItem } from '../../src/core/items/schemas';

const samples = join(__dirname, '..', '..', 'samples');

function info(loaded: LoadedFile, kind: string, kindLabel: string, file: string) {
  return { file, kind, kindLabel, container: loaded.container, detectionReason: loaded.detection.reason, records: loaded.records.length, problems: [] as string[] };
}

function delegation(loaded: LoadedFile, file: string) {
  const items = loaded.records.flatMap((r) => (r.kind === 'delegation-item' ? [{ id: r.id, item: r.item as DelegationItem }] : []));
  return {
    info: info(loaded, 'delegation', 'Delegation items', file),
    kind: 'delegation',
    sidecar: `${file}.audit.json`,
    items: items.map(({ id, item }) => ({
      id,
      label: itemLabel(item),
      irrelevant: item.irrelevant_docs.map((d) => String(d.doc_id)),
      distractors: item.distractor_docs.map((d) => String(d.doc_id)),
      full: fullItemView(item),
      blind: blindItemView(item),
    })),
  };
}

const HOSTILE = {
  id: 'hostile-01',
  query: 'Which value does <img src=x onerror="window.__pwned=1"> report for 2023? \u202Eevil\u202C',
  golden_answer: '<script>window.__pwned=2</script>42',
  mode: 'slot_mismatch',
  golden_docs: [{ doc_id: 'g<1>', title: '<b>bold?</b>', url: 'javascript:alert(1)', site_name: 'Site"><svg onload=alert(1)>', publish_time: '2024', content: 'Intro. The answer is 42 <img src=x onerror="window.__pwned=3"> in 2023.\u200B Done.' }],
  irrelevant_docs: [{ doc_id: 'i1', title: 'Noise', content: '<iframe src="https://evil.example"></iframe> noise' }],
  distractor_docs: [{ doc_id: 'x1', title: 'Fake', content: 'The answer is 41.', distractor_type: '<i>slot</i>', conflict_hint: '<img src=x onerror="window.__pwned=4">', discriminating_constraint: 'year', source_doc_key: 'g<1>' }],
  evidence_spans: [{ doc_id: 'g<1>', text: 'The answer is 42 <img src=x onerror="window.__pwned=3">' }, { doc_id: 'g<1>', text: 'answer is 42' }],
  reasoning_steps: ['<script>window.__pwned=5</script>'],
};

function main() {
  const out: Record<string, unknown> = {};
  for (const [name, rel] of [['deleg-en', 'items/delegation/deleg-en-0231-oil-fund-equity-gap.json'], ['deleg-zh', 'items/delegation/deleg-zh-0158-olympic-events.json'], ['leaky', 'items/delegation/leaky-item.json']] as const) {
    out[name] = delegation(loadFile(join(samples, rel)), rel);
  }
  // A multi-item file: the three samples as one JSON array.
  const all = ['deleg-en-0231-oil-fund-equity-gap.json', 'deleg-zh-0158-olympic-events.json', 'leaky-item.json'].map((n) => loadFile(join(samples, 'items/delegation', n)).records[0]);
  const arrayText = JSON.stringify(all.map((r) => (r.kind === 'delegation-item' ? r.item : null)));
  out['deleg-multi'] = delegation(loadText(arrayText, 'items/delegation/all-items.json'), 'items/delegation/all-items.json');
  out.hostile = delegation(loadText(JSON.stringify(HOSTILE), 'hostile.json'), 'hostile.json');

  for (const [name, rel] of [['dsqa-csv', 'items/deepsearchqa/deepsearchqa-sample.csv'], ['dsqa-jsonl', 'items/deepsearchqa/deepsearchqa-sample.jsonl']] as const) {
    const loaded = loadFile(join(samples, rel));
    out[name] = { info: info(loaded, 'deepsearchqa', 'DeepSearchQA', rel), kind: 'deepsearchqa', rows: loaded.records.flatMap((r) => (r.kind === 'deepsearchqa' ? [dsqaRow(r.row)] : [])) };
  }
  {
    const rel = 'items/clarify/clarify-instances.jsonl';
    const loaded = loadFile(join(samples, rel));
    out.clarify = { info: info(loaded, 'clarify', 'Clarify-Then-Search', rel), kind: 'clarify', instances: loaded.records.flatMap((r) => (r.kind === 'clarify-instance' ? [clarifyView(r.instance)] : [])) };
  }
  {
    const rel = 'items/scenarios/scenario-set.json';
    const setPath = join(samples, rel);
    const loaded = loadFile(setPath);
    const r = loaded.records[0];
    if (r.kind !== 'scenario-set') throw new Error('not a set');
    const run = readRunFolder(join(samples, 'runs/scenarios-run'), setPath);
    const results = resultsById(run.lines);
    // Leave the human criteria of the first scenarios unmarked, as a reviewer would find them.
    for (const id of ['TS-01', 'TS-02']) {
      const line = results.get(id)!;
      for (const c of r.scenarioSet.scenarios.find((s) => s.id === id)!.criteria) if (c.check === 'human') delete line.criteria[c.id];
    }
    const score = scoreScenarios(r.scenarioSet, results);
    out.scenarios = {
      info: info(loaded, 'scenarios', 'Scenario set', rel),
      kind: 'scenarios',
      set: scenarioSetView(r.scenarioSet),
      state: {
        runFolder: 'runs/scenarios-run',
        resultsFile: 'runs/scenarios-run/results.jsonl',
        resultsExists: true,
        manifest: 'present',
        notices: [],
        results: Object.fromEntries([...results].map(([id, l]) => [id, { criteria: l.criteria, ...(l.silent_citations !== undefined ? { silent_citations: l.silent_citations } : {}) }])),
        scores: score.scenarios,
        aMean: score.a_mean,
        gate: { passed: score.gate.passed, reasons: score.gate.reasons },
        changed: [],
      },
    };
  }
  process.stdout.write(JSON.stringify(out));
}

main();
