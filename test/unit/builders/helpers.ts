// The mock builder model of the builder tests: scripted Stage-A, Stage-B and Stage-C replies for
// the three topics of samples/builder/, chosen by the prompt each request carries.
import { join } from 'node:path';
import type { MockReply, MockRequest } from '../../mock/mockModelServer';
import { ROOT } from '../harness/helpers';

export const BUILDER_SAMPLES = join(ROOT, 'samples', 'builder');
export const POOL = join(BUILDER_SAMPLES, 'docs.jsonl');
export const SEEDS = join(BUILDER_SAMPLES, 'seeds.jsonl');

export interface Synthesis {
  query: string;
  golden_answer: string;
  golden_doc_ids: string[];
  irrelevant_doc_ids: string[];
  evidence_spans: { doc_id: string; text: string }[];
  reasoning_steps: string[];
}

export interface Topic {
  /** A word of the seed query that picks the topic. */
  key: RegExp;
  synthesis: Synthesis;
  distractors: Record<string, string>[];
}

export const PENSION: Topic = {
  key: /Nordhavn/,
  synthesis: {
    query:
      "By how many percentage points did the listed-equity return of the Nordhavn municipal employees' pension fund exceed its bond return in calendar year 2023?",
    golden_answer: '10.1 percentage points',
    golden_doc_ids: ['p01', 'p02'],
    irrelevant_doc_ids: ['p03', 'p04'],
    evidence_spans: [
      { doc_id: 'p01', text: 'Listed equities returned 14.2 percent and government and mortgage bonds returned 4.1 percent' },
      { doc_id: 'p02', text: 'Bonds contributed 4.1 percent as yields fell in the fourth quarter' },
    ],
    reasoning_steps: [
      "The fund's annual report gives the 2023 return on listed equities: 14.2 percent.",
      'The same report and the results release give the bond return: 4.1 percent.',
      '14.2 − 4.1 = 10.1 percentage points.',
    ],
  },
  distractors: [
    {
      distractor_type: 'slot_mismatch',
      source_doc_key: 'p01',
      target_info_point: 'Return on listed equities and on bonds in the reporting year',
      target_evidence_text: 'Listed equities returned 14.2 percent and government and mortgage bonds returned 4.1 percent',
      title: 'Annual Report 2022: Key Figures',
      content:
        "Nordhavn Municipal Pension Fund – Annual Report 2022. Key figures. The total return on the fund's assets was -11.8 percent in 2022. Listed equities returned -16.3 percent and government and mortgage bonds returned -9.5 percent. Real estate returned 3.1 percent. Assets under management were DKK 56.0 billion at 31 December 2022.",
      site_name: 'Nordhavn Municipal Pension Fund',
      synthetic_url: 'https://www.nordhavnpension.dk/en/reports/annual-report-2022',
      pseudo_publish_time: '2023-03-16',
      discriminating_constraint: 'The query fixes calendar year 2023; this report covers 2022.',
      conflict_hint: 'Golden: 2023 equities 14.2%, bonds 4.1%. Distractor: 2022 equities -16.3%, bonds -9.5%.',
    },
    {
      // States the golden answer: rule 5 drops it.
      distractor_type: 'source_downgrade',
      source_doc_key: 'p01',
      target_info_point: 'Return on listed equities in 2023',
      target_evidence_text: 'Listed equities returned 14.2 percent',
      title: 'My take on the Nordhavn pension fund numbers',
      content:
        'I went through the Nordhavn pension fund accounts for 2023 myself. Listed equities beat bonds by 10.1 percentage points, but I think the fund took far too much risk with its listed equity portfolio and the bond return of the municipal fund was weak.',
      site_name: 'Pension Watch Blog',
      synthetic_url: 'https://pensionwatch.example.net/2024/nordhavn-numbers',
      pseudo_publish_time: '2024-04-02',
      discriminating_constraint: 'A personal blog, not the fund’s own reporting.',
      conflict_hint: 'Golden: official figures. Distractor: a blogger’s reading.',
    },
    {
      // The verifier finds no query-constrained difference: dropped by the verifier.
      distractor_type: 'causal_narrative',
      source_doc_key: 'p02',
      target_info_point: 'Why listed equities returned more than bonds in 2023',
      target_evidence_text: 'Bonds contributed 4.1 percent as yields fell in the fourth quarter',
      title: 'Why the pension fund’s equities did so well',
      content:
        "Copenhagen, 15 March 2024. The Nordhavn municipal pension fund's return on listed equities in 2023 came mostly from a bet on shipping companies, according to a former board member, while its bond return suffered from the fund's short duration. The fund itself credits European industrials and healthcare.",
      site_name: 'Børsbladet',
      synthetic_url: 'https://www.borsbladet.dk/pension/nordhavn-equities-shipping',
      pseudo_publish_time: '2024-03-15',
      discriminating_constraint: 'An unnamed former board member against the fund’s own statement.',
      conflict_hint: 'Golden: industrials and healthcare. Distractor: shipping.',
    },
  ],
};

export const MARATHON: Topic = {
  key: /Riverton/,
  synthesis: {
    query: "By how many seconds did the men's winning time at Riverton's April 2024 city marathon improve on the course record set in 2019?",
    golden_answer: '49 seconds',
    golden_doc_ids: ['p05', 'p06'],
    irrelevant_doc_ids: ['p07', 'p08'],
    evidence_spans: [
      { doc_id: 'p05', text: 'Men: 1. Daniel Okoro 2:08:41 (course record)' },
      { doc_id: 'p06', text: 'taking 49 seconds off the course record of 2:09:30 from 2019' },
    ],
    reasoning_steps: [
      'The official results give the winning time, 2:08:41.',
      'The race report gives the old record, 2:09:30 from 2019.',
      '2:09:30 − 2:08:41 = 49 seconds.',
    ],
  },
  distractors: [
    {
      distractor_type: 'recency_trap',
      source_doc_key: 'p05',
      target_info_point: "The men's winning time in the 2024 race",
      target_evidence_text: 'Men: 1. Daniel Okoro 2:08:41 (course record)',
      title: 'Timing correction: Okoro even faster in Riverton',
      content:
        "Riverton, 3 May 2024. A correction from the timing company shows that Daniel Okoro actually won the men's race of the Riverton City Marathon in 2:08:14, which would put the new course record 76 seconds under the old mark of 2:09:30 from 2019. The organisers have not published corrected results.",
      site_name: 'Riverton Gazette',
      synthetic_url: 'https://www.rivertongazette.com/sports/okoro-timing-correction',
      pseudo_publish_time: '2024-05-03',
      discriminating_constraint: 'A later newspaper claim against the organiser’s official results.',
      conflict_hint: 'Golden: 2:08:41 (49 s under the record). Distractor: 2:08:14 (76 s).',
    },
  ],
};

export const WIND: Topic = {
  key: /Kestrel/,
  synthesis: {
    query:
      'What is the total installed capacity, in megawatts, of the Kestrel Bay Offshore Wind Farm, whose turbines were all in commercial operation by the end of September 2024?',
    golden_answer: '640 megawatts',
    golden_doc_ids: ['p09', 'p10'],
    irrelevant_doc_ids: ['p11', 'p12'],
    evidence_spans: [
      { doc_id: 'p09', text: 'for a total installed capacity of 640 megawatts' },
      { doc_id: 'p10', text: 'with a maximum export capacity of 640 megawatts' },
    ],
    reasoning_steps: ['The operator states 40 turbines of 16 MW each: 640 MW installed.', "The regulator's grid decision allows 640 MW of export capacity."],
  },
  distractors: [
    {
      distractor_type: 'source_downgrade',
      source_doc_key: 'p09',
      target_info_point: 'Installed capacity of the wind farm',
      target_evidence_text: 'for a total installed capacity of 640 megawatts',
      title: 'Kestrel Bay: the real numbers',
      content:
        'My sources tell me the Kestrel Bay Offshore Wind Farm ended up with 38 turbines of 15 megawatts each, so its real installed capacity is closer to 570 megawatts than the figure in the brochure. Commercial operation of the offshore wind farm started in September 2024.',
      site_name: 'Wind Insider Blog',
      synthetic_url: 'https://www.windinsiderblog.net/2024/10/kestrel-bay-real-numbers',
      pseudo_publish_time: '2024-10-04',
      discriminating_constraint: 'A blog citing unnamed sources against the operator’s announcement.',
      conflict_hint: 'Golden: 640 MW (40 × 16 MW). Distractor: 570 MW (38 × 15 MW).',
    },
  ],
};

/** The topic of the seed query that seed-query expansion adds (see builderModel). */
export const ADMIN: Topic = {
  key: /administration|running costs/,
  synthesis: {
    query: "What share of its assets did the Nordhavn municipal employees' pension fund spend on running costs in 2023?",
    golden_answer: '0.21 percent',
    golden_doc_ids: ['p01'],
    irrelevant_doc_ids: ['p04'],
    evidence_spans: [{ doc_id: 'p01', text: 'Costs of administration were 0.21 percent of assets' }],
    reasoning_steps: ["The fund's 2023 annual report states its administration costs as a share of assets: 0.21 percent."],
  },
  distractors: [],
};
export const EXPANDED_SEED = 'What share of its assets did Nordhavn Municipal Pension Fund spend on administration in 2023?';

export const TOPICS = [ADMIN, PENSION, MARATHON, WIND];

const topicOf = (text: string): Topic | undefined => TOPICS.find((t) => t.key.test(text));
/** Stage B and C prompts carry the item's query, which is its topic's synthesized query. */
const topicOfItem = (text: string): Topic | undefined => TOPICS.find((t) => text.includes(t.synthesis.query));

/** The ids of the documents a prompt lists (`Document N [id] …`). */
export function listedIds(text: string): string[] {
  return [...text.matchAll(/Document \d+ \[([^\]]+)\]/g)].map((m) => m[1]);
}

export interface BuilderModelOptions {
  /** Synthesis replies per topic before its clean one (leaky ones, say); used in order. */
  before?: Map<Topic, Synthesis[]>;
  /** Stage-C C3 severity per irrelevant doc id ("remove_document", "discard_item"). */
  c3?: Record<string, 'remove_document' | 'discard_item'>;
  /** Topics the C2 verifier answers correctly from the query alone. */
  memorized?: Topic[];
  seen?: MockRequest[];
}

/** One handler for every builder and Stage-C prompt. */
export function builderModel(options: BuilderModelOptions = {}): (r: MockRequest) => MockReply {
  const used = new Map<Topic, number>();
  const json = (value: unknown): MockReply => ({ text: JSON.stringify(value), usage: { inputTokens: 500, outputTokens: 100 } });
  return (r) => {
    options.seen?.push(r);
    const text = `${r.system}\n${r.userText}`;
    if (r.system.includes('You write new seed queries')) return json({ queries: [{ query: EXPANDED_SEED, intent: 'factual_lookup' }] });
    if (r.system.includes('list the information needs')) {
      const title = /title: ([^|\n]+)/.exec(r.userText)?.[1]?.trim() ?? 'this document';
      return json({ subqueries: [`What does "${title}" report?`, `When was "${title}" published?`] });
    }
    if (r.system.includes('working backward from evidence')) {
      const seed = /Seed query:\n(.*)/.exec(r.userText)?.[1] ?? '';
      const topic = topicOf(seed);
      if (!topic) return json({ query: '', golden_answer: '', golden_doc_ids: [], irrelevant_doc_ids: [], evidence_spans: [], reasoning_steps: [] });
      const n = used.get(topic) ?? 0;
      used.set(topic, n + 1);
      const queue = options.before?.get(topic) ?? [];
      const reply = n < queue.length ? queue[n] : topic.synthesis;
      const listed = new Set(listedIds(r.userText));
      return json({ ...reply, irrelevant_doc_ids: reply.irrelevant_doc_ids.filter((id) => listed.has(id)) });
    }
    if (r.system.includes('You write adversarial documents')) {
      const topic = topicOfItem(r.userText);
      return json({ distractor_docs: topic?.distractors ?? [] });
    }
    if (r.system.includes('You check distractor documents')) {
      const causal = r.userText.includes('distractor_type: causal_narrative');
      return json({
        query_constrained_difference: !causal,
        dimension: causal ? '' : 'time or source authority',
        topically_plausible: true,
        rejectable_from_visible_evidence: true,
        reveals_correct_document: false,
        reason: causal ? 'the cause of the return is not what the query asks' : 'the query fixes the period and the source',
      });
    }
    // Stage C (harness stage-c's prompts).
    const topic = topicOfItem(text);
    if (text.includes('Answer the question using ONLY the documents')) {
      const span = topic?.synthesis.evidence_spans[0];
      return json({
        answer: topic?.synthesis.golden_answer ?? '',
        evidence: span ? [{ doc_id: span.doc_id, quote: span.text }] : [],
        needs_outside_information: false,
        multiple_incompatible_answers: false,
        notes: '',
      });
    }
    if (text.includes('semantically equivalent')) return json({ equivalent: true, reason: 'same value' });
    if (text.includes('from your own knowledge alone')) {
      const known = topic && options.memorized?.includes(topic);
      return json({ can_answer: !!known, answer: known ? topic.synthesis.golden_answer : '', confidence: known ? 0.95 : 0.1, shortcut_cues: [] });
    }
    if (text.includes('labelled irrelevant')) {
      const id = listedIds(r.userText)[0] ?? '';
      const severity = options.c3?.[id];
      return json({
        answer_bearing: severity !== undefined,
        intermediate_fact: false,
        duplicates_evidence: false,
        metadata_cue: false,
        severity: severity ?? 'none',
        reason: severity ? `document ${id} supports part of the answer` : 'topical noise',
      });
    }
    if (text.includes('Each distractor below')) {
      const count = Number(/Distractors \((\d+)\)/.exec(text)?.[1] ?? 0);
      return json({
        distractors: Array.from({ length: count }, (_, i) => ({
          index: i + 1,
          topically_relevant: true,
          plausibly_misleading: true,
          invalid_by_query_constraint: true,
          unconstrained_dimension: false,
          needs_private_knowledge: false,
          leaks_artificial: false,
          too_strong: false,
          arbitrary_fabrication: false,
          reason: 'the query fixes the period and the source',
        })),
      });
    }
    return { text: '{}' };
  };
}
