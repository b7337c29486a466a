// Shared pieces of the harness tests: the mock "evaluated model" for Delegation, sample paths.
import { join, resolve } from 'node:path';
import type { MockReply, MockRequest } from '../../mock/mockModelServer';

export const ROOT = resolve(__dirname, '..', '..', '..');
export const SAMPLES = join(ROOT, 'samples');
export const DELEGATION_ITEMS = join(SAMPLES, 'items', 'delegation');
export const LEAKY_ITEM = join(DELEGATION_ITEMS, 'leaky-item.json');
export const CLARIFY_INSTANCES = join(SAMPLES, 'items', 'clarify', 'clarify-instances.jsonl');
export const DSQA_CSV = join(SAMPLES, 'items', 'deepsearchqa', 'deepsearchqa-sample.csv');
export const FAKE_AGENT = join(ROOT, 'test', 'fixtures', 'harness', 'fake-agent.mjs');

/** Messages of an OpenAI or Anthropic request body, with their text. */
function messages(request: MockRequest): { role: string; text: string; tools: number }[] {
  const list: any[] = request.body?.messages ?? [];
  return list.map((m) => {
    const content = m.content;
    const text =
      typeof content === 'string'
        ? content
        : Array.isArray(content)
          ? content.map((b: any) => (typeof b.text === 'string' ? b.text : typeof b.content === 'string' ? b.content : '')).join('\n')
          : '';
    const tools = (m.tool_calls?.length ?? 0) + (Array.isArray(content) ? content.filter((b: any) => b.type === 'tool_use').length : 0);
    return { role: m.role, text, tools };
  });
}

/**
 * The evaluated model of the Delegation tests. Setting I: cites the first two bracketed ids of the
 * user message. Setting II: searches `searches` times (query "<n> fund return"), then answers
 * citing every rs id it has seen; at tool_choice none it answers.
 */
export function delegationModel(searches = 1): (request: MockRequest) => MockReply {
  return (request) => {
    const body = request.body ?? {};
    const all = messages(request);
    const text = all.map((m) => m.text).join('\n');
    if (!body.tools) {
      const ids = [...text.matchAll(/Document \d+ \[([^\]]+)\]/g)].map((m) => m[1]);
      return { text: `The answer is 42 [${ids[0]}][${ids[1]}]. See also [zz9].`, usage: { inputTokens: 1000, outputTokens: 20 } };
    }
    const choice = body.tool_choice;
    const disabled = choice === 'none' || choice?.type === 'none';
    const made = all.filter((m) => m.role === 'assistant' && m.tools > 0).length - 1; // minus the injected call
    const seen = [...new Set([...text.matchAll(/"doc_id": "(rs\d+)"/g)].map((m) => m[1]))];
    if (!disabled && made < searches)
      return {
        text: '',
        toolCalls: [{ name: 'search', arguments: JSON.stringify({ query: `${made + 1} fund return 2023` }) }],
        usage: { inputTokens: 2000, outputTokens: 10 },
      };
    return {
      text: `Answer${disabled ? ' at the budget' : ''}: 16.1 percent ${seen.map((id) => `[${id}]`).join('')}`,
      usage: { inputTokens: 2500, outputTokens: 30 },
    };
  };
}
