// The item views' browser-test fixtures: the sample files under samples/items (loaded by the fake
// item host through the real loader), plus two written at setup: the three Delegation samples as
// one JSON array, and a hostile Delegation item (`<img onerror>`, `<script>`, a `javascript:` URL,
// bidi and zero-width characters, markup inside an evidence span).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesDir, repoRoot } from './paths';

export type ItemFixture = 'deleg-en' | 'deleg-zh' | 'leaky' | 'deleg-multi' | 'hostile' | 'dsqa-csv' | 'dsqa-jsonl' | 'clarify' | 'scenarios';

const samples = join(repoRoot, 'samples');
const delegationSamples = ['deleg-en-0231-oil-fund-equity-gap.json', 'deleg-zh-0158-olympic-events.json', 'leaky-item.json'].map((n) =>
  join(samples, 'items/delegation', n),
);

export const ITEM_FIXTURE_FILES: Record<ItemFixture, string> = {
  'deleg-en': delegationSamples[0],
  'deleg-zh': delegationSamples[1],
  leaky: delegationSamples[2],
  'deleg-multi': join(fixturesDir, 'all-items.json'),
  hostile: join(fixturesDir, 'hostile-item.json'),
  'dsqa-csv': join(samples, 'items/deepsearchqa/deepsearchqa-sample.csv'),
  'dsqa-jsonl': join(samples, 'items/deepsearchqa/deepsearchqa-sample.jsonl'),
  clarify: join(samples, 'items/clarify/clarify-instances.jsonl'),
  scenarios: join(samples, 'items/scenarios/scenario-set.json'),
};

/** The scenario set's run folder (its results.jsonl and manifest). */
export const SCENARIO_RUN_FOLDER = join(samples, 'runs/scenarios-run');
/** Scenarios whose human criteria the fake host leaves unmarked, as a reviewer would find them. */
export const UNMARKED_SCENARIOS = ['TS-01', 'TS-02'];

const HOSTILE = {
  id: 'hostile-01',
  query: 'Which value does <img src=x onerror="window.__pwned=1"> report for 2023? \u202Eevil\u202C',
  golden_answer: '<script>window.__pwned=2</script>42',
  mode: 'slot_mismatch',
  golden_docs: [
    {
      doc_id: 'g<1>',
      title: '<b>bold?</b>',
      url: 'javascript:alert(1)',
      site_name: 'Site"><svg onload=alert(1)>',
      publish_time: '2024',
      content: 'Intro. The answer is 42 <img src=x onerror="window.__pwned=3"> in 2023.\u200B Done.',
    },
  ],
  irrelevant_docs: [{ doc_id: 'i1', title: 'Noise', content: '<iframe src="https://evil.example"></iframe> noise' }],
  distractor_docs: [
    {
      doc_id: 'x1',
      title: 'Fake',
      content: 'The answer is 41.',
      distractor_type: '<i>slot</i>',
      conflict_hint: '<img src=x onerror="window.__pwned=4">',
      discriminating_constraint: 'year',
      source_doc_key: 'g<1>',
    },
  ],
  evidence_spans: [
    { doc_id: 'g<1>', text: 'The answer is 42 <img src=x onerror="window.__pwned=3">' },
    { doc_id: 'g<1>', text: 'answer is 42' },
  ],
  reasoning_steps: ['<script>window.__pwned=5</script>'],
};

export function writeItemFixtures(dir: string): void {
  const items = delegationSamples.map((file) => JSON.parse(readFileSync(file, 'utf8')) as unknown);
  writeFileSync(join(dir, 'all-items.json'), JSON.stringify(items, null, 1));
  writeFileSync(join(dir, 'hostile-item.json'), JSON.stringify(HOSTILE, null, 1));
}
