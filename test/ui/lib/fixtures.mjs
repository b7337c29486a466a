// Files the UI tests and the editor benchmark write into their temporary workspace:
//  - a hostile trajectory (markup, script, javascript:/data: links, SVG onload, CSS, bidi and
//    zero-width tricks, a 1 MB single line) plus a sidecar whose annotation and audit are
//    hostile too, and a trajectory whose FILE NAME is markup;
//  - synthetic OpenAI-chat trajectories of a given size for the benchmark (deterministic,
//    streamed to disk so a 120 MB file never sits in memory as one string).
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';

/** Every payload sets this global (in its own window and, if it can, in the workbench's). */
export const PWNED_FLAG = '__pwned';
const JS = `window.${PWNED_FLAG}=1;try{top.${PWNED_FLAG}=1;parent.${PWNED_FLAG}=1}catch(e){};alert(1)`;

export const HOSTILE = [
  `<img src=x onerror="${JS}">`,
  `<script>${JS}</script>`,
  `</script><script nonce="">${JS}</script>`,
  `<a href="javascript:${JS}">click me (javascript: link)</a>`,
  `[markdown link](javascript:${JS})`,
  '<a href="data:text/html;base64,PHNjcmlwdD50b3AuX19wd25lZD0xPC9zY3JpcHQ+">open data: link</a>',
  `![img](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9InRvcC5fX3B3bmVkPTEiLz4=)`,
  `<svg onload="${JS}"><circle r="40"/></svg>`,
  `<svg><script>${JS}</script></svg>`,
  `<math><mtext><table><mglyph><style><img src=x onerror="${JS}">`,
  `<iframe srcdoc="<script>${JS}</script>"></iframe>`,
  `<object data="javascript:${JS}"></object><embed src="javascript:${JS}">`,
  '<style>body{display:none!important}*{color:red!important;font-size:64px!important}</style>',
  '<div style="position:fixed;inset:0;z-index:99999;background:red;width:5000px">OVERLAY</div>',
  '<link rel="stylesheet" href="https://evil.example/x.css"><meta http-equiv="refresh" content="0;url=javascript:top.__pwned=1">',
  '<base href="javascript:top.__pwned=1//">',
  `<details open ontoggle="${JS}">x</details><video><source onerror="${JS}"></video>`,
  `<input autofocus onfocus="${JS}">`,
  `{{constructor.constructor('${JS}')()}} \${alert(1)} <%= alert(1) %>`,
  `"><img src=x onerror=${JS}>`,
  `' onmouseover='${JS}' x='`,
  'Bidi: the price is \u202E0001$\u202C; user\u200B\u200Bname; \u2066isolated\u2069; BOM\uFEFF; RLM\u200F; ALM\u061C; soft\u00ADhyphen.',
  'Trojan source: if (isAdmin) { \u202E } \u2066 // check later \u2069 { grant(); }',
];

const ALL_HOSTILE = HOSTILE.join('\n');

/** A single line of about `bytes` characters, no newline, with a findable token every ~8 KB. */
export function oneMegabyteLine(bytes = 1_048_576) {
  const unit = 'NEEDLE-1MB ';
  const filler = 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(230); // ~8 KB
  let line = '';
  while (line.length < bytes) line += unit + filler;
  return `BEGIN-1MB-LINE ${line.slice(0, bytes)} END-1MB-LINE`;
}

/**
 * The hostile trajectory (OpenAI chat format). Positions: 0 system, 1 user, then pairs of
 * (assistant decision step, tool return); the final answer last. Returns the path, the
 * message positions that hold each kind of payload, and the sidecar path.
 */
export function writeHostileTrajectory(folder, name = 'hostile.traj.json') {
  mkdirSync(folder, { recursive: true });
  const messages = [];
  const push = (m) => messages.push(m) - 1;
  const call = (id, fn, args) => ({ id, type: 'function', function: { name: fn, arguments: typeof args === 'string' ? args : JSON.stringify(args) } });
  const positions = {};
  push({ role: 'system', content: `You are a research agent.\n${ALL_HOSTILE}` });
  positions.user = push({ role: 'user', content: `Who wrote the libretto? ${HOSTILE[0]} ${HOSTILE[7]}` });
  positions.firstDecision = push({
    role: 'assistant',
    content: HOSTILE[1],
    reasoning_content: `Let me search. ${HOSTILE[3]} ${HOSTILE[21]}`,
    tool_calls: [call('c1', 'search', { query: [HOSTILE[0], HOSTILE[7], 'chamber opera libretto'] })],
  });
  positions.searchReturn = push({ role: 'tool', tool_call_id: 'c1', name: 'search', content: `## Results\n${ALL_HOSTILE}\n1. [Programme](javascript:${JS})` });
  positions.visitDecision = push({
    role: 'assistant',
    content: '',
    reasoning_content: `Open the page. ${HOSTILE[12]}`,
    tool_calls: [call('c2', 'visit', { url: [`javascript:${JS}`, 'data:text/html,<script>top.__pwned=1</script>'], goal: HOSTILE[13] })],
  });
  positions.bigLine = push({ role: 'tool', tool_call_id: 'c2', name: 'visit', content: oneMegabyteLine() });
  positions.invalidArgs = push({
    role: 'assistant',
    content: HOSTILE[2],
    tool_calls: [call('c3', 'search', `{"query": ["</script><script>${JS}</script>", }`)],
  });
  positions.cssReturn = push({ role: 'tool', tool_call_id: 'c3', name: 'search', content: `${HOSTILE[12]}\n${HOSTILE[13]}\n${HOSTILE[14]}\n${HOSTILE[15]}` });
  positions.longCall = push({
    role: 'assistant',
    content: `${HOSTILE[21]}\n${HOSTILE[22]}`,
    // A 200 KB single-line argument: the row's call summary must not widen the layout.
    tool_calls: [call('c4', 'search', { query: ['W'.repeat(200_000)] })],
  });
  positions.svgReturn = push({
    role: 'tool',
    tool_call_id: 'c4',
    name: 'search',
    content: HOSTILE.slice(7, 12).join('\n') + '\n' + HOSTILE.slice(16, 21).join('\n'),
  });
  positions.bidi = push({
    role: 'assistant',
    content: HOSTILE[21],
    reasoning_content: HOSTILE[22],
    tool_calls: [call('c5', 'search', { query: ['bidi \u202Egnirts\u202C'] })],
  });
  positions.bidiReturn = push({ role: 'tool', tool_call_id: 'c5', name: 'search', content: `${HOSTILE[21]}\n${HOSTILE[22]}` });
  positions.final = push({ role: 'assistant', content: `Final answer: ${HOSTILE[0]}`, reasoning_content: HOSTILE[1] });
  const doc = { model: `<img src=x onerror="${JS}">`, messages, predicted_answer: `${HOSTILE[0]} ${HOSTILE[19]}` };
  const file = join(folder, name);
  const text = `${JSON.stringify(doc, null, 1)}\n`;
  writeFileSync(file, text);

  // A sidecar with hostile annotation and audit text (the right-hand panel renders it).
  const sidecar = {
    schema: 'trajaudit.audit/v1',
    trajectory: { file: name, sha256: createHash('sha256').update(text).digest('hex'), format: 'openai-chat' },
    records: {
      0: {
        annotation: {
          criticalStep: positions.visitDecision,
          toleranceSpan: [positions.firstDecision, positions.visitDecision],
          rootCause: 'unverified_source_reliance',
          rationale: ALL_HOSTILE,
          repairDirective: HOSTILE[3],
          repairRubrics: [HOSTILE[0], HOSTILE[7]],
          annotator: HOSTILE[19],
          updatedAt: '2026-11-01T00:00:00Z',
        },
        audits: [
          {
            id: 'hostile-audit',
            method: HOSTILE[1],
            provider: HOSTILE[0],
            model: HOSTILE[7],
            createdAt: '2026-11-02T00:00:00Z',
            diagnosis: {
              criticalStep: positions.firstDecision,
              rootCause: 'constraint_neglect',
              rationale: ALL_HOSTILE,
              citedSteps: [positions.firstDecision, positions.searchReturn],
            },
            repair: { directives: [HOSTILE[3], HOSTILE[10]] },
            branches: [{ name: HOSTILE[7], criticalStep: positions.firstDecision, rootCause: 'constraint_neglect', rationale: HOSTILE[0], notes: HOSTILE[12] }],
            adjudication: { disagreements: HOSTILE[1], clusters: [[positions.firstDecision]] },
          },
        ],
      },
    },
  };
  const sidecarFile = `${file}.audit.json`;
  writeFileSync(sidecarFile, `${JSON.stringify(sidecar, null, 2)}\n`);
  return { file, sidecarFile, positions, messageCount: messages.length };
}

/** A small valid trajectory whose file name is markup (header, title and tab must show it as text). */
export const HOSTILE_FILE_NAME = `"><img src=x onerror=alert(1)> '-svg onload=alert(1).traj.json`;
export function writeHostileNamedTrajectory(folder) {
  mkdirSync(folder, { recursive: true });
  const file = join(folder, HOSTILE_FILE_NAME);
  writeFileSync(
    file,
    JSON.stringify({
      messages: [
        { role: 'user', content: 'Which file is this?' },
        { role: 'assistant', content: '', tool_calls: [{ id: 'a', type: 'function', function: { name: 'search', arguments: '{"query":["file name"]}' } }] },
        { role: 'tool', tool_call_id: 'a', content: 'A result.' },
        { role: 'assistant', content: 'Final answer: this one.' },
      ],
    }),
  );
  return file;
}

// ── synthetic trajectories for the benchmark ────────────────────────────────────────────────

/** Deterministic PRNG (mulberry32). */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'the of and to in a is that for on with as by at from this be are was or an which it has were its ' +
  'olympic river museum founded council district season league championship election author novel published ' +
  'company revenue quarterly report university professor research journal archive census population village ' +
  'railway station bridge cathedral festival award nominee director film album record label according official ' +
  'website retrieved page snippet article wikipedia source 1987 1994 2003 2011 2019 chamber opera libretto premiere'
).split(' ');
const NAMES = ['Liisa Tamm', 'Marta Kuusk', 'Viktor Almgren', 'Jesper Ekholm', 'Anders Vinther', 'Dace Ozola', 'Rūta Kalniņa', 'Elīna Liepa'];

function words(r, n) {
  const out = new Array(n);
  for (let i = 0; i < n; i++) out[i] = WORDS[Math.floor(r() * WORDS.length)];
  return out.join(' ');
}
/** Prose of about `chars` characters, in paragraphs. */
function prose(r, chars) {
  const parts = [];
  let size = 0;
  while (size < chars) {
    const p = `${words(r, 40 + Math.floor(r() * 80))}.`;
    parts.push(p);
    size += p.length + 2;
  }
  return parts.join('\n\n');
}
/** A search-engine style tool return of about `chars` characters. */
function searchReturn(r, queries, chars) {
  const lines = [];
  let size = 0;
  let k = 0;
  while (size < chars) {
    const q = queries[k % queries.length];
    const who = NAMES[Math.floor(r() * NAMES.length)];
    const block = `## Search results for "${q}"\n${[1, 2, 3, 4, 5].map((i) => `${i}. [${who} — ${words(r, 5)}](https://example.org/${who.toLowerCase().replace(/\W+/g, '-')}/${k}-${i})\n   ${words(r, 30 + Math.floor(r() * 30))}.`).join('\n')}`;
    lines.push(block);
    size += block.length + 2;
    k++;
  }
  return lines.join('\n\n');
}
/** Log-normal-ish size around `mean` (clamped to [mean/20, mean*12]). */
function sizeAround(r, mean) {
  const z = Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
  const v = mean * Math.exp(0.9 * z - 0.405); // E[exp(0.9z)] = exp(0.405)
  return Math.round(Math.max(mean / 20, Math.min(mean * 12, v)));
}

/**
 * Writes an OpenAI-chat trajectory with `messages` messages (system, user, then decision
 * steps with search/visit calls and their tool returns, then a final answer). Tool returns
 * average `returnChars` characters, reasoning `reasoningChars`. Streamed to disk.
 * Returns { file, bytes, messages, lastPosition }.
 */
export function writeSyntheticTrajectory(file, { messages, returnChars, reasoningChars = 600, seed = 1, bigReturnEvery = 0, bigReturnChars = 1_000_000 }) {
  mkdirSync(dirname(file), { recursive: true });
  const r = rng(seed);
  const fd = openSync(file, 'w');
  const steps = Math.max(1, Math.floor((messages - 3) / 2));
  let bytes = 0;
  const write = (s) => {
    bytes += writeSync(fd, s);
  };
  try {
    write('{"model":"synthetic-bench","messages":[\n');
    const emit = (m, last) => write(`${JSON.stringify(m)}${last ? '\n' : ',\n'}`);
    emit({ role: 'system', content: 'You are a deep research agent with search(query) and visit(url, goal). Answer as "Exact Answer: ...".' });
    emit({
      role: 'user',
      content: 'A chamber opera by a Baltic woman composer premiered between 2005 and 2012 in a converted industrial building. Who wrote the libretto?',
    });
    for (let s = 0; s < steps; s++) {
      const id = `call_${s}`;
      const isSearch = r() < 0.6;
      const queries = Array.from({ length: 1 + Math.floor(r() * 3) }, () => words(r, 5));
      const url = `https://example.org/${words(r, 1)}/${s}`;
      emit({
        role: 'assistant',
        content: s % 9 === 4 ? `Interim note: candidate so far is ${NAMES[s % NAMES.length]}.` : '',
        reasoning_content: `Step ${s + 1}: ${prose(r, sizeAround(r, reasoningChars))}`,
        tool_calls: [
          {
            id,
            type: 'function',
            function: isSearch
              ? { name: 'search', arguments: JSON.stringify({ query: queries }) }
              : { name: 'visit', arguments: JSON.stringify({ url: [url], goal: `Confirm ${words(r, 4)}` }) },
          },
        ],
      });
      const big = bigReturnEvery > 0 && s % bigReturnEvery === bigReturnEvery - 1;
      const size = big ? bigReturnChars : sizeAround(r, returnChars);
      const content = isSearch ? searchReturn(r, queries, size) : `# ${url}\n\nTitle: ${words(r, 6)}\n\n${prose(r, size)}`;
      emit({ role: 'tool', tool_call_id: id, name: isSearch ? 'search' : 'visit', content });
    }
    emit({ role: 'assistant', content: `Exact Answer: ${NAMES[0]}`, reasoning_content: `Comparing the candidates: ${prose(r, reasoningChars)}` }, true);
    write(`],"predicted_answer":${JSON.stringify(NAMES[0])}}\n`);
  } finally {
    closeSync(fd);
  }
  const count = 3 + steps * 2;
  return { file, bytes, messages: count, lastPosition: count - 1 };
}
