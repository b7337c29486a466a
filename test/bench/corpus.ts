// Synthetic corpora shaped like SearchAuditBench (seed 002, §3.4 and Appendix C): 1,243 failed
// trajectories, mean 73 messages, mean ~65K tokens with a ~39K median and ~152K P90 (log-normal),
// tool returns ~3/4 of the text, batched search calls. Deterministic (seeded).
import { mulberry32 } from '../../src/core/random';

const WORDS = (
  'the of and to in a is that for on with as by at from this be are was or an which it has were its ' +
  'olympic river museum founded council district season league championship election author novel published ' +
  'company revenue quarterly report university professor research journal archive census population ' +
  'village railway station bridge cathedral festival award nominee director film album record label ' +
  'according official website retrieved page snippet article wikipedia source 1987 1994 2003 2011 2019'
).split(' ');

function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** About `tokens` o200k tokens of prose-like text (~1.09 o200k tokens per word of this vocabulary). */
export function prose(random: () => number, tokens: number): string {
  const words: string[] = [];
  const n = Math.max(1, Math.round(tokens / 1.09));
  for (let i = 0; i < n; i++) words.push(WORDS[Math.floor(random() * WORDS.length)]);
  return words.join(' ');
}

export type Shape = 'searchauditbench' | 'tongyi' | 'anthropic';

/** One trajectory of roughly `messageCount` messages and `tokens` tokens. */
export function makeTrajectory(random: () => number, index: number, messageCount: number, tokens: number, shape: Shape): unknown {
  const turns = Math.max(2, Math.floor((messageCount - 3) / 2));
  const perReturn = Math.round((tokens * 0.75) / turns);
  const perThought = Math.round((tokens * 0.23) / turns);
  const query = `Which ${prose(random, 30)}?`;
  const openai: unknown[] = [
    { role: 'system', content: 'You are a deep-search agent with search and visit tools.' },
    { role: 'user', content: query },
  ];
  const tongyi: unknown[] = [
    { role: 'system', content: 'You are a deep research assistant.' },
    { role: 'user', content: query },
  ];
  const anthropic: unknown[] = [{ role: 'user', content: query }];
  for (let t = 0; t < turns; t++) {
    const isSearch = random() < 0.7;
    const args = isSearch
      ? { query: [prose(random, 8), prose(random, 8), prose(random, 8)].slice(0, 1 + Math.floor(random() * 3)) }
      : { url: `https://example.org/${index}/${t}`, goal: prose(random, 10) };
    const name = isSearch ? 'search' : 'visit';
    const thought = prose(random, perThought);
    const result = prose(random, perReturn * (0.3 + random() * 1.4));
    const id = `call_${index}_${t}`;
    openai.push({
      role: 'assistant',
      content: '',
      reasoning_content: thought,
      tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
    });
    openai.push({ role: 'tool', tool_call_id: id, content: result });
    tongyi.push({ role: 'assistant', content: `<think>${thought}</think>\n<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>` });
    tongyi.push({ role: 'user', content: `<tool_response>\n${result}\n</tool_response>` });
    anthropic.push({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: thought },
        { type: 'tool_use', id, name, input: args },
      ],
    });
    anthropic.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: result }] });
  }
  const answer = prose(random, 12);
  if (shape === 'tongyi') {
    tongyi.push({ role: 'assistant', content: `<think>${prose(random, 50)}</think>\n<answer>${answer}</answer>` });
    return { question: query, answer: 'gold', prediction: answer, termination: 'answer', messages: tongyi };
  }
  if (shape === 'anthropic') {
    anthropic.push({ role: 'assistant', content: [{ type: 'text', text: answer }] });
    return { system: 'You are a deep-search agent.', messages: anthropic };
  }
  openai.push({ role: 'assistant', content: answer, reasoning_content: prose(random, 50) });
  return {
    index,
    query,
    predicted_answer: answer,
    trajectory: openai,
    critical_step: 2,
    tolerance_span: [2, 4],
    root_cause_primary: 'Candidate Mismanagement',
  };
}

/** The SearchAuditBench-shaped corpus, as JSON texts (one per trajectory). */
export function searchAuditBenchCorpus(count = 1243, seed = 7): string[] {
  const random = mulberry32(seed);
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    const tokens = Math.min(600_000, Math.round(39_400 * Math.exp(1.0 * normal(random))));
    const messages = Math.max(7, Math.round((73 * Math.exp(0.55 * normal(random))) / 1.16));
    const shape: Shape = i % 5 === 3 ? 'tongyi' : i % 5 === 4 ? 'anthropic' : 'searchauditbench';
    texts.push(JSON.stringify(makeTrajectory(random, i, messages, tokens, shape)));
  }
  return texts;
}

/** One trajectory of about `megabytes` MB and `messages` messages. */
export function hugeTrajectory(megabytes = 120, messages = 5000, seed = 11): string {
  const random = mulberry32(seed);
  const tokens = Math.round((megabytes * 1024 * 1024) / 5.75);
  return JSON.stringify(makeTrajectory(random, 0, messages, tokens, 'searchauditbench'));
}
