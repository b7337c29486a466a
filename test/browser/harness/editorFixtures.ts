// The editor's browser-test fixtures: deep-search trajectories written as real trajectory files
// (SearchAuditBench JSON, OpenAI chat JSON, SearchAuditBench JSONL) with their audit sidecars,
// read by the fake host through the real loader. Hostile content is sprinkled in.
//   small: 80 messages, one record, gold labels + two audits, a 1 MB single-line tool return
//   large: 5,000 messages, one record, three 1 MB tool returns
//   multi: a JSONL file with 14 records (record list, filters, H / L)
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SIDECAR_SCHEMA } from '../../../src/core/sidecar/schema';
import { sha256Of, sidecarPathFor } from '../../../src/core/sidecar/sidecarFile';

export type EditorFixture = 'small' | 'large' | 'multi';

interface Call {
  id: string;
  name: string;
  arguments: string;
}
interface Msg {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  reasoning?: string;
  toolCalls?: Call[];
  toolCallId?: string;
  agent?: string;
}

// Deterministic PRNG (mulberry32) so fixtures are stable.
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const HOSTILE = [
  '<img src=x onerror="window.__pwned=1">',
  '<script>window.__pwned=1</script>',
  '<a href="javascript:window.__pwned=1">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD53aW5kb3cuX19wd25lZD0xPC9zY3JpcHQ+">open data link</a>',
  '<svg onload="window.__pwned=1"><circle r="5"/></svg>',
  '<style>body{display:none !important}*{color:red}</style><div style="position:fixed;inset:0;background:red">overlay</div>',
  'javascript:window.__pwned=1',
  '<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
  '{{constructor.constructor("window.__pwned=1")()}}',
  'Bidi: price is \u202E0001$\u202C and user\u200B\u200Bname\u2066isolated\u2069 with BOM\uFEFF and RLM\u200F.',
];

const FIRST = ['Liisa', 'Marta', 'Kadri', 'Ieva', 'Anna', 'Rūta', 'Elīna', 'Tiina', 'Dace', 'Kristi'];
const LAST = ['Tamm', 'Kuusk', 'Ozola', 'Kalniņa', 'Saar', 'Bērziņa', 'Mägi', 'Liepa', 'Kask', 'Vītola'];
const VENUES = ['Kultuuritehas Polymer', 'Noblessner Foundry', 'Fabrika Spīķeri', 'Telliskivi Creative City', 'VEF Culture Palace', 'Kauno Menų Fabrikas'];
const TOPICS = [
  'chamber opera premiere',
  'choral prize laureate',
  'libretto',
  'Baltic contemporary opera',
  'converted factory venue',
  'composer biography',
  'national music award 2003',
  'opera festival programme',
];
const WORDS =
  'the of opera chamber premiere libretto composer baltic festival venue factory foundry converted women choral prize national award season production director conductor ensemble soprano tenor review critic newspaper archive programme booklet estonian latvian lithuanian tallinn riga vilnius premiere staged performance cast score commission ministry culture'.split(
    ' ',
  );

function words(r: () => number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(WORDS[Math.floor(r() * WORDS.length)]);
  return out.join(' ');
}
function pick<T>(r: () => number, arr: readonly T[]): T {
  return arr[Math.floor(r() * arr.length)];
}
function name(r: () => number): string {
  return `${pick(r, FIRST)} ${pick(r, LAST)}`;
}

function searchReturn(r: () => number, queries: string[], hostile: string): string {
  const blocks: string[] = [];
  for (const q of queries) {
    const lines = [`## Search results for "${q}"`];
    for (let i = 1; i <= 5; i++) {
      const who = name(r);
      const title = `${who} — ${pick(r, TOPICS)} (${2004 + Math.floor(r() * 10)})`;
      lines.push(`${i}. [${title}](https://example.org/${who.toLowerCase().replace(/\W+/g, '-')}/${i})`);
      lines.push(`   ${words(r, 28)}.`);
    }
    if (hostile) lines.push(`   Snippet: ${hostile}`);
    blocks.push(lines.join('\n'));
  }
  return blocks.join('\n\n');
}

function visitReturn(r: () => number, url: string, paragraphs: number, hostile: string): string {
  const out = [`# ${url}`, '', `Title: ${name(r)} — ${pick(r, TOPICS)}`, ''];
  for (let i = 0; i < paragraphs; i++) out.push(words(r, 60 + Math.floor(r() * 60)) + '.', '');
  if (hostile) out.push(hostile);
  return out.join('\n');
}

function callArgs(args: unknown): string {
  return JSON.stringify(args);
}

/**
 * Builds one trajectory. `steps` decision steps with tool calls, then a final answer.
 * Returns messages (role, content, reasoning?, toolCalls?, toolCallId?, agent?).
 */
interface TrajectorySpec {
  seed: number;
  steps: number;
  query: string;
  predicted: string;
  hostileEvery?: number;
  bigReturns?: number[];
  agent?: string;
  invalidArgsAt?: number;
}

function trajectory({ seed, steps, query, predicted, hostileEvery = 0, bigReturns = [], agent, invalidArgsAt = -1 }: TrajectorySpec): Msg[] {
  const r = rng(seed);
  const messages: Msg[] = [];
  messages.push({
    role: 'system',
    content: 'You are a deep-research agent. Use search(query=[...]) and visit(url=[...], goal=...) to find the answer. Answer with "Final answer: ...".',
  });
  messages.push({ role: 'user', content: query });
  let callId = 0;
  let hostileIdx = 0;
  for (let s = 0; s < steps; s++) {
    const isSearch = r() < 0.62;
    const id = `call_${seed}_${++callId}`;
    let toolCalls: Call[];
    let reasoning: string;
    if (isSearch) {
      const n = 1 + Math.floor(r() * 3);
      const queries = Array.from({ length: n }, () => `${pick(r, TOPICS)} ${pick(r, VENUES)} ${2005 + Math.floor(r() * 8)}`);
      toolCalls = [{ id, name: 'search', arguments: callArgs({ query: queries }) }];
      reasoning = `Step ${s + 1}: I need more evidence about ${pick(r, TOPICS)}. ${words(r, 30 + Math.floor(r() * 40))}. Let me search for ${queries.map((q) => `"${q}"`).join(' and ')}.`;
    } else {
      const url = `https://example.org/${pick(r, LAST).toLowerCase()}/${Math.floor(r() * 1000)}`;
      toolCalls = [{ id, name: 'visit', arguments: callArgs({ url: [url], goal: `Confirm the ${pick(r, TOPICS)} details` }) }];
      reasoning = `Step ${s + 1}: The snippet mentions ${name(r)}; ${words(r, 25 + Math.floor(r() * 30))}. I should open ${url} to verify.`;
    }
    if (s === invalidArgsAt) toolCalls[0].arguments = '{"query": ["unterminated chamber opera", }';
    messages.push({
      role: 'assistant',
      content: s % 7 === 3 ? `Interim note: candidate so far is ${name(r)}.` : '',
      reasoning,
      toolCalls,
      ...(agent ? { agent } : {}),
    });
    const hostile = hostileEvery && s % hostileEvery === 1 ? HOSTILE[hostileIdx++ % HOSTILE.length] : '';
    let content: string;
    if (bigReturns.includes(s)) {
      // A 1 MB single line: no newlines at all.
      content =
        'BEGIN-1MB-LINE ' +
        Array.from({ length: 1_000_000 / 8 }, (_, i) => (i % 97 === 0 ? 'needle!!' : 'abcdefg '))
          .join('')
          .replace(/ /g, '_') +
        ' END-1MB-LINE';
    } else if (isSearch) {
      content = searchReturn(
        r,
        (JSON.parse(toolCalls[0].arguments.startsWith('{"query": ["unterminated') ? '{"query":["x"]}' : toolCalls[0].arguments) as { query?: string[] })
          .query ?? ['x'],
        hostile,
      );
    } else {
      content = visitReturn(r, (JSON.parse(toolCalls[0].arguments) as { url: string[] }).url[0], 3 + Math.floor(r() * 6), hostile);
    }
    messages.push({ role: 'tool', toolCallId: id, content });
  }
  messages.push({
    role: 'assistant',
    ...(agent ? { agent } : {}),
    reasoning: `I have compared the candidates. ${words(r, 40)}. The librettist credited in the programme booklet is ${predicted}.`,
    content: `Final answer: ${predicted}`,
  });
  return messages;
}

/** Gives the decision step at `pos` a second, parallel call and inserts its return. */
function addParallelCall(messages: Msg[], pos: number, seed: number): void {
  const r = rng(seed);
  const step = messages[pos];
  const id = `call_par_${pos}`;
  const url = `https://example.org/archive/${Math.floor(r() * 1000)}`;
  step.toolCalls!.push({ id, name: 'visit', arguments: JSON.stringify({ url: [url, url + '/credits'], goal: 'Read the credits' }) });
  let at = pos + 1;
  while (messages[at] && messages[at].role === 'tool') at++;
  messages.splice(at, 0, { role: 'tool', toolCallId: id, content: visitReturn(r, url, 2, '') });
}

function small(): FixtureRecord {
  const predicted = 'Marta Kuusk';
  const gold = 'Liisa Tamm';
  const messages = trajectory({
    seed: 7,
    steps: 38,
    query:
      'A chamber opera by a Baltic woman composer premiered between 2005 and 2012 in a converted industrial building. Her earlier choral work had won a national prize. Who wrote the libretto? ' +
      HOSTILE[0],
    predicted,
    hostileEvery: 4,
    bigReturns: [30],
    invalidArgsAt: 21,
  });
  // Make the answers occur in the evidence (answer trace).
  messages[5].content += `\n6. [Programme booklet](https://example.org/booklet)\n   Libretto by ${gold}; staged at Noblessner Foundry in 2009.`;
  messages[11].reasoning += ` Candidate: ${predicted} might be the librettist.`;
  messages[13].content += `\n\nCredits: music ${name(rng(3))}, libretto ${predicted} (per a fan wiki).`;
  messages[40].content += `\n\nThe 2009 programme lists ${gold} as librettist.`;
  addParallelCall(messages, 74, 5);
  return {
    id: 'baltic-chamber-opera',
    query: messages[1].content,
    predictedAnswer: predicted,
    goldAnswer: gold,
    gold: {
      criticalStep: 14,
      toleranceSpan: [12, 16],
      rootCause: 'unverified_source_reliance',
      rationale: 'The agent accepted the fan-wiki credit at message 13 without opening the primary programme booklet that the search at step 4 had surfaced.',
      repairDirective: 'From step 14, open the primary programme booklet and reconcile the librettist credit before committing.',
      repairRubrics: [
        'Opens the 2009 programme booklet',
        'Compares the fan-wiki credit with the primary source',
        'Keeps both candidates until one is verified',
        'Does not answer from a snippet',
      ],
    },
    audits: [
      {
        id: 'audit-older',
        method: 'all-at-once',
        provider: 'openai',
        model: 'gpt-5.5',
        createdAt: '2026-11-20T09:12:00Z',
        diagnosis: { criticalStep: 30, rootCause: 'candidate_mismanagement', rationale: 'Locked onto the first candidate.', citedSteps: [28, 30] },
        repair: { directives: ['Compare candidates before answering.'] },
      },
      {
        id: 'audit-newest',
        method: 'searchauditor',
        provider: 'anthropic',
        model: 'claude-opus-4.8',
        createdAt: '2026-11-27T16:40:00Z',
        promptVersion: 'v3',
        diagnosis: {
          criticalStep: 16,
          rootCause: 'unverified_source_reliance',
          rationale:
            'At step 16 the agent commits to the fan-wiki librettist credit seen in the return of step 12 without opening the programme booklet listed at message 5. ' +
            HOSTILE[2],
          citedSteps: [5, 13, 16, 40],
        },
        repair: {
          directives: [
            'Open the primary programme booklet before accepting a credit from a secondary source.',
            'Keep Liisa Tamm and Marta Kuusk as competing candidates until one is verified.',
          ],
        },
        branches: [
          { name: 'holistic', criticalStep: 16, rootCause: 'unverified_source_reliance', rationale: 'Trusting the fan wiki.' },
          {
            name: 'backward',
            criticalStep: 14,
            rootCause: 'constraint_neglect',
            rationale: 'The venue constraint was not rechecked.',
            notes: 'Constraint table: venue ✓, year ✓, prize ✗',
          },
          { name: 'forward', criticalStep: 24, rootCause: 'candidate_mismanagement', rationale: 'Dropped the second candidate.' },
        ],
        adjudication: {
          clusters: [[14, 16], [24]],
          disagreements: 'Backward branch places the error two steps earlier (constraint view); the holistic and forward views agree on source reliance.',
        },
      },
    ],
    messages,
  };
}

function large(): FixtureRecord {
  const messages = trajectory({
    seed: 11,
    steps: 2498,
    query: 'Long-horizon stress test: identify the 2009 chamber opera librettist. ' + HOSTILE[4],
    predicted: 'Dace Ozola',
    hostileEvery: 50,
    bigReturns: [300, 1200, 2100],
    agent: 'researcher',
  });
  addParallelCall(messages, 4990, 9);
  return {
    id: 'stress-5000',
    query: messages[1].content,
    predictedAnswer: 'Dace Ozola',
    goldAnswer: 'Liisa Tamm',
    gold: { criticalStep: 2402, toleranceSpan: [2398, 2406], rootCause: 'search_coverage_gap' },
    audits: [
      {
        id: 'a1',
        method: 'searchauditor',
        model: 'gpt-5.5',
        createdAt: '2026-11-27T10:00:00Z',
        diagnosis: { criticalStep: 3000, rootCause: 'search_coverage_gap', rationale: 'Never searched the festival archive.', citedSteps: [2998, 3000] },
        branches: [
          { name: 'holistic', criticalStep: 3000, rootCause: 'search_coverage_gap' },
          { name: 'backward', criticalStep: 2402, rootCause: 'search_coverage_gap' },
          { name: 'forward', criticalStep: 4100, rootCause: 'candidate_mismanagement' },
        ],
      },
    ],
    messages,
  };
}

function multi(): FixtureRecord[] {
  const records: FixtureRecord[] = [];
  for (let i = 0; i < 14; i++) {
    const r = rng(100 + i);
    const predicted = name(r);
    const steps = 10 + Math.floor(r() * 25);
    const messages = trajectory({
      seed: 100 + i,
      steps,
      query: `Record ${i + 1}: which ${pick(r, TOPICS)} premiered at ${pick(r, VENUES)}?`,
      predicted,
      hostileEvery: i % 3 === 0 ? 5 : 0,
    });
    const decisions = messages.map((m, p) => (m.role === 'assistant' ? p : -1)).filter((p) => p >= 0);
    const crit = decisions[Math.floor(decisions.length / 2)];
    const annotated = i % 3 !== 2;
    const audited = i % 2 === 0;
    records.push({
      id: `rec-${String(i + 1).padStart(3, '0')}`,
      query: messages[1].content,
      predictedAnswer: predicted,
      annotation: annotated
        ? {
            criticalStep: crit,
            toleranceSpan: [decisions[Math.floor(decisions.length / 2) - 1], decisions[Math.floor(decisions.length / 2) + 1]],
            rootCause: i % 4 === 0 ? 'constraint_neglect' : 'search_coverage_gap',
            annotator: 'ada',
            updatedAt: '2026-11-25T12:00:00Z',
            customField: { keep: true },
          }
        : undefined,
      audits: audited
        ? [
            {
              id: `a-${i}`,
              method: 'searchauditor',
              createdAt: '2026-11-26T12:00:00Z',
              diagnosis: { criticalStep: i % 4 === 0 ? decisions[1] : crit, rootCause: 'search_coverage_gap', citedSteps: [crit] },
            },
          ]
        : [],
      messages,
    });
  }
  return records;
}

interface FixtureRecord {
  id: string;
  query: string;
  predictedAnswer: string;
  goldAnswer?: string;
  gold?: { criticalStep: number; toleranceSpan: [number, number]; rootCause: string; rationale?: string; repairDirective?: string; repairRubrics?: string[] };
  annotation?: Record<string, unknown>;
  audits: Record<string, unknown>[];
  messages: Msg[];
}

/** A message as OpenAI chat completions write it (docs/formats.md §3 `openai-chat`). */
function openAiMessage(m: Msg): Record<string, unknown> {
  const out: Record<string, unknown> = { role: m.role, content: m.content };
  if (m.agent) out.name = m.agent;
  if (m.reasoning) out.reasoning_content = m.reasoning;
  if (m.toolCalls?.length) out.tool_calls = m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
  if (m.toolCallId) out.tool_call_id = m.toolCallId;
  return out;
}

/** A SearchAuditBench instance (docs/formats.md §3 `searchauditbench`) with its gold fields. */
function searchAuditBench(rec: FixtureRecord, withId: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = withId ? { id: rec.id } : {};
  out.query = rec.query;
  out.predicted_answer = rec.predictedAnswer;
  if (rec.goldAnswer) out.gold_answer = rec.goldAnswer;
  if (rec.gold) {
    out.critical_step = rec.gold.criticalStep;
    out.tolerance_span = rec.gold.toleranceSpan;
    out.root_cause = rec.gold.rootCause;
    if (rec.gold.rationale) out.rationale = rec.gold.rationale;
    if (rec.gold.repairDirective) out.repair_directive = rec.gold.repairDirective;
    if (rec.gold.repairRubrics) out.repair_rubrics = rec.gold.repairRubrics;
  }
  out.trajectory = rec.messages.map(openAiMessage);
  return out;
}

function sidecarText(file: string, text: string, format: string, records: Record<string, FixtureRecord>): string {
  const entries = Object.fromEntries(
    Object.entries(records).map(([id, r]) => [id, { ...(r.annotation ? { annotation: r.annotation } : {}), audits: r.audits }]),
  );
  return JSON.stringify({ schema: SIDECAR_SCHEMA, trajectory: { file, sha256: sha256Of(text), format }, records: entries }, null, 1);
}

export const EDITOR_FIXTURE_FILES: Record<EditorFixture, string> = {
  small: 'baltic-chamber-opera.traj.json',
  large: 'stress-5000.traj.json',
  multi: 'batch-14.traj.jsonl',
};

/** Writes the three fixtures and their sidecars into `dir`; returns their paths. */
export function writeEditorFixtures(dir: string): Record<EditorFixture, string> {
  mkdirSync(dir, { recursive: true });
  const write = (fixture: EditorFixture, text: string, format: string, records: Record<string, FixtureRecord>) => {
    const path = join(dir, EDITOR_FIXTURE_FILES[fixture]);
    writeFileSync(path, text);
    writeFileSync(sidecarPathFor(path), sidecarText(EDITOR_FIXTURE_FILES[fixture], text, format, records));
    return path;
  };
  const one = small();
  const stress = large();
  const batch = multi();
  return {
    // A single-trajectory file's record id is "0" (docs/formats.md §8).
    small: write('small', JSON.stringify(searchAuditBench(one, false), null, 1), 'searchauditbench', { 0: one }),
    large: write('large', JSON.stringify({ messages: stress.messages.map(openAiMessage) }), 'openai-chat', { 0: stress }),
    multi: write(
      'multi',
      batch.map((r) => JSON.stringify(searchAuditBench(r, true))).join('\n') + '\n',
      'searchauditbench',
      Object.fromEntries(batch.map((r) => [r.id, r])),
    ),
  };
}
