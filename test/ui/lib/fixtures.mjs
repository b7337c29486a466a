// Files the editor benchmark (test/bench/editor.mjs) writes into its temporary workspace:
// synthetic OpenAI-chat trajectories of a given size (deterministic, streamed to disk so a 120 MB
// file never sits in memory as one string). The workbench tests' hostile fixtures are in
// test/workbench/harness/hostile.ts.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

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
