// Generates the harness fixtures (dev only): realistic-ish deep-search trajectories in a small
// neutral shape the fake host understands, with hostile content sprinkled in.
//   small: 80 messages, one record, gold labels + one audit, a 1 MB single-line tool return
//   large: 5,000 messages, one record, several 1 MB tool returns
//   multi: a JSONL-like file with 14 records (record list, filters, H / L)
// Usage: node test/webview-harness/gen-fixtures.mjs [outDir]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const outDir = process.argv[2] ?? join(here, '../../test-artifacts/webview/fixtures');

// Deterministic PRNG (mulberry32) so fixtures are stable.
function rng(seed) {
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
const TOPICS = ['chamber opera premiere', 'choral prize laureate', 'libretto', 'Baltic contemporary opera', 'converted factory venue', 'composer biography', 'national music award 2003', 'opera festival programme'];
const WORDS = 'the of opera chamber premiere libretto composer baltic festival venue factory foundry converted women choral prize national award season production director conductor ensemble soprano tenor review critic newspaper archive programme booklet estonian latvian lithuanian tallinn riga vilnius premiere staged performance cast score commission ministry culture'.split(' ');

function words(r, n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(WORDS[Math.floor(r() * WORDS.length)]);
  return out.join(' ');
}
function pick(r, arr) {
  return arr[Math.floor(r() * arr.length)];
}
function name(r) {
  return `${pick(r, FIRST)} ${pick(r, LAST)}`;
}

function searchReturn(r, queries, hostile) {
  const blocks = [];
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

function visitReturn(r, url, paragraphs, hostile) {
  const out = [`# ${url}`, '', `Title: ${name(r)} — ${pick(r, TOPICS)}`, ''];
  for (let i = 0; i < paragraphs; i++) out.push(words(r, 60 + Math.floor(r() * 60)) + '.', '');
  if (hostile) out.push(hostile);
  return out.join('\n');
}

function callArgs(name, args) {
  return JSON.stringify(args);
}

/**
 * Builds one trajectory. `steps` decision steps with tool calls, then a final answer.
 * Returns messages (role, content, reasoning?, toolCalls?, toolCallId?, agent?).
 */
function trajectory({ seed, steps, query, predicted, hostileEvery = 0, bigReturns = [], agent, invalidArgsAt = -1 }) {
  const r = rng(seed);
  const messages = [];
  messages.push({ role: 'system', content: 'You are a deep-research agent. Use search(query=[...]) and visit(url=[...], goal=...) to find the answer. Answer with "Final answer: ...".' });
  messages.push({ role: 'user', content: query });
  let callId = 0;
  let hostileIdx = 0;
  for (let s = 0; s < steps; s++) {
    const isSearch = r() < 0.62;
    const id = `call_${seed}_${++callId}`;
    let toolCalls;
    let reasoning;
    if (isSearch) {
      const n = 1 + Math.floor(r() * 3);
      const queries = Array.from({ length: n }, () => `${pick(r, TOPICS)} ${pick(r, VENUES)} ${2005 + Math.floor(r() * 8)}`);
      toolCalls = [{ id, name: 'search', arguments: callArgs('search', { query: queries }) }];
      reasoning = `Step ${s + 1}: I need more evidence about ${pick(r, TOPICS)}. ${words(r, 30 + Math.floor(r() * 40))}. Let me search for ${queries.map((q) => `"${q}"`).join(' and ')}.`;
    } else {
      const url = `https://example.org/${pick(r, LAST).toLowerCase()}/${Math.floor(r() * 1000)}`;
      toolCalls = [{ id, name: 'visit', arguments: callArgs('visit', { url: [url], goal: `Confirm the ${pick(r, TOPICS)} details` }) }];
      reasoning = `Step ${s + 1}: The snippet mentions ${name(r)}; ${words(r, 25 + Math.floor(r() * 30))}. I should open ${url} to verify.`;
    }
    if (s === invalidArgsAt) toolCalls[0].arguments = '{"query": ["unterminated chamber opera", }';
    messages.push({ role: 'assistant', content: s % 7 === 3 ? `Interim note: candidate so far is ${name(r)}.` : '', reasoning, toolCalls, agent });
    const hostile = hostileEvery && s % hostileEvery === 1 ? HOSTILE[hostileIdx++ % HOSTILE.length] : '';
    let content;
    if (bigReturns.includes(s)) {
      // A 1 MB single line: no newlines at all.
      content = 'BEGIN-1MB-LINE ' + Array.from({ length: 1_000_000 / 8 }, (_, i) => (i % 97 === 0 ? 'needle!!' : 'abcdefg ')).join('').replace(/ /g, '_') + ' END-1MB-LINE';
    } else if (isSearch) {
      content = searchReturn(r, JSON.parse(toolCalls[0].arguments.startsWith('{"query": ["unterminated') ? '{"query":["x"]}' : toolCalls[0].arguments).query ?? ['x'], hostile);
    } else {
      content = visitReturn(r, JSON.parse(toolCalls[0].arguments).url[0], 3 + Math.floor(r() * 6), hostile);
    }
    messages.push({ role: 'tool', toolCallId: id, content });
  }
  messages.push({
    role: 'assistant',
    agent,
    reasoning: `I have compared the candidates. ${words(r, 40)}. The librettist credited in the programme booklet is ${predicted}.`,
    content: `Final answer: ${predicted}`,
  });
  return messages;
}

/** Gives the decision step at `pos` a second, parallel call and inserts its return. */
function addParallelCall(messages, pos, seed) {
  const r = rng(seed);
  const step = messages[pos];
  const id = `call_par_${pos}`;
  const url = `https://example.org/archive/${Math.floor(r() * 1000)}`;
  step.toolCalls.push({ id, name: 'visit', arguments: JSON.stringify({ url: [url, url + '/credits'], goal: 'Read the credits' }) });
  let at = pos + 1;
  while (messages[at] && messages[at].role === 'tool') at++;
  messages.splice(at, 0, { role: 'tool', toolCallId: id, content: visitReturn(r, url, 2, '') });
}

function small() {
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
    label: 'baltic-chamber-opera (80 msgs)',
    query: messages[1].content,
    predictedAnswer: predicted,
    goldAnswer: gold,
    gold: {
      criticalStep: 14,
      toleranceSpan: [12, 16],
      rootCause: 'unverified_source_reliance',
      rationale: 'The agent accepted the fan-wiki credit at message 13 without opening the primary programme booklet that the search at step 4 had surfaced.',
      repairDirective: 'From step 14, open the primary programme booklet and reconcile the librettist credit before committing.',
      repairRubrics: ['Opens the 2009 programme booklet', 'Compares the fan-wiki credit with the primary source', 'Keeps both candidates until one is verified', 'Does not answer from a snippet'],
    },
    annotation: undefined,
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
          rationale: 'At step 16 the agent commits to the fan-wiki librettist credit seen in the return of step 12 without opening the programme booklet listed at message 5. ' + HOSTILE[2],
          citedSteps: [5, 13, 16, 40],
        },
        repair: { directives: ['Open the primary programme booklet before accepting a credit from a secondary source.', 'Keep Liisa Tamm and Marta Kuusk as competing candidates until one is verified.'] },
        branches: [
          { name: 'holistic', criticalStep: 16, rootCause: 'unverified_source_reliance', rationale: 'Trusting the fan wiki.' },
          { name: 'backward', criticalStep: 14, rootCause: 'constraint_neglect', rationale: 'The venue constraint was not rechecked.', notes: 'Constraint table: venue ✓, year ✓, prize ✗' },
          { name: 'forward', criticalStep: 24, rootCause: 'candidate_mismanagement', rationale: 'Dropped the second candidate.' },
        ],
        adjudication: { clusters: [[14, 16], [24]], disagreements: 'Backward branch places the error two steps earlier (constraint view); the holistic and forward views agree on source reliance.' },
      },
    ],
    messages,
  };
}

function large() {
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
    label: 'stress-5000',
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

function multi() {
  const records = [];
  for (let i = 0; i < 14; i++) {
    const r = rng(100 + i);
    const predicted = name(r);
    const steps = 10 + Math.floor(r() * 25);
    const messages = trajectory({ seed: 100 + i, steps, query: `Record ${i + 1}: which ${pick(r, TOPICS)} premiered at ${pick(r, VENUES)}?`, predicted, hostileEvery: i % 3 === 0 ? 5 : 0 });
    const decisions = messages.map((m, p) => (m.role === 'assistant' ? p : -1)).filter((p) => p >= 0);
    const crit = decisions[Math.floor(decisions.length / 2)];
    const annotated = i % 3 !== 2;
    const audited = i % 2 === 0;
    records.push({
      id: `rec-${String(i + 1).padStart(3, '0')}`,
      label: `rec-${String(i + 1).padStart(3, '0')} · ${steps * 2 + 3} msgs`,
      query: messages[1].content,
      predictedAnswer: predicted,
      annotation: annotated
        ? { criticalStep: crit, toleranceSpan: [decisions[Math.floor(decisions.length / 2) - 1], decisions[Math.floor(decisions.length / 2) + 1]], rootCause: i % 4 === 0 ? 'constraint_neglect' : 'search_coverage_gap', annotator: 'ada', updatedAt: '2026-11-25T12:00:00Z', customField: { keep: true } }
        : undefined,
      audits: audited
        ? [{ id: `a-${i}`, method: 'searchauditor', createdAt: '2026-11-26T12:00:00Z', diagnosis: { criticalStep: i % 4 === 0 ? decisions[1] : crit, rootCause: 'search_coverage_gap', citedSteps: [crit] } }]
        : [],
      messages,
    });
  }
  return records;
}

export function buildFixtures() {
  return {
    small: { file: '/work/samples/trajectories/baltic-chamber-opera.traj.json', container: 'json', format: 'openai-chat', detectionReason: 'messages[] with role/tool_calls/tool_call_id (OpenAI chat completions)', records: [small()] },
    large: { file: '/work/samples/stress/stress-5000.traj.json', container: 'json', format: 'openai-chat', detectionReason: 'messages[] with role/tool_calls (synthetic 5,000-message stress file)', records: [large()] },
    multi: { file: '/work/samples/batches/batch-14.jsonl', container: 'jsonl', format: 'searchauditbench', detectionReason: 'one JSON object per line with query, pred_answer, messages', records: multi() },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(outDir, { recursive: true });
  for (const [name, fx] of Object.entries(buildFixtures())) {
    const path = join(outDir, `${name}.json`);
    writeFileSync(path, JSON.stringify(fx));
    console.log(`${path}: ${fx.records.length} record(s), ${fx.records.reduce((n, r) => n + r.messages.length, 0)} messages`);
  }
}
