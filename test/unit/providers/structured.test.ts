import assert from 'node:assert/strict';
import { z } from 'zod';
import { ModelError, StructuredOutputError } from '../../../src/core/providers/errors';
import { extractJson, isStrictCompatible } from '../../../src/core/providers/json';
import { completeStructured, jsonSchemaOf } from '../../../src/core/providers/structured';
import { anthropicClient, openaiClient, rejection, useMockServer, user } from './helpers';

const Verdict = z.object({ critical_step: z.number().int().min(0), root_cause: z.enum(['premature_stop', 'misread_evidence']), rationale: z.string() });
const good = { critical_step: 4, root_cause: 'premature_stop', rationale: 'stopped before verifying' };

describe('providers: JSON extraction', () => {
  const ok = (text: string) => {
    const r = extractJson(text);
    assert.ok(r.ok, `expected JSON in ${JSON.stringify(text)}: ${r.ok ? '' : r.problem}`);
    return r.value;
  };

  it('takes plain JSON, fenced blocks, and the first balanced object in prose', () => {
    assert.deepEqual(ok(' {"a": 1} '), { a: 1 });
    assert.deepEqual(ok('Here you go:\n```json\n{"a": 2}\n```\nDone.'), { a: 2 });
    assert.deepEqual(ok('```\n{"a": 3}\n```'), { a: 3 });
    assert.deepEqual(ok('```python\nx = {1}\n```\n```json\n{"a": 4}\n```'), { a: 4 });
    assert.deepEqual(ok('The verdict is {"a": {"b": "a } brace in a string"}} as requested; {"c": 1}'), { a: { b: 'a } brace in a string' } });
    assert.deepEqual(ok('{not json} but then {"a": 5}'), { a: 5 });
    assert.deepEqual(ok('<think>maybe {"a": 0}?</think>\n{"a": 6}'), { a: 6 });
    assert.deepEqual(ok('```json\n{"a": 7}'), { a: 7 }, 'unclosed fence');
  });

  it('says why there is no JSON', () => {
    assert.deepEqual(extractJson(''), { ok: false, problem: 'the reply was empty' });
    assert.deepEqual(extractJson('I cannot decide.'), { ok: false, problem: 'no JSON object found in the reply' });
    const cut = extractJson('{"critical_step": 4, "rationale": "the agent');
    assert.ok(!cut.ok && /not valid JSON/.test(cut.problem));
  });

  it('knows which schemas OpenAI strict mode accepts', () => {
    assert.equal(isStrictCompatible(jsonSchemaOf(Verdict)), true);
    assert.equal(isStrictCompatible(jsonSchemaOf(Verdict.extend({ note: z.string().optional() }))), false);
    assert.equal(isStrictCompatible({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }), false, 'additionalProperties missing');
    assert.equal(isStrictCompatible({ type: 'array', items: { type: 'object', properties: {}, additionalProperties: false } }), true);
    assert.equal(jsonSchemaOf(Verdict).$schema, undefined);
  });
});

describe('providers: completeStructured', () => {
  const ctx = useMockServer();

  it('returns the validated value on the first attempt (OpenAI native json_schema)', async () => {
    ctx.server.reply({ text: JSON.stringify(good), usage: { inputTokens: 100, outputTokens: 20 } });
    const result = await completeStructured(openaiClient(ctx.server), { messages: [user('audit')] }, Verdict, { name: 'verdict' });
    assert.deepEqual(result.value, good);
    assert.equal(result.attempts, 1);
    assert.equal(result.transportAttempts, 1);
    const body = ctx.server.requests[0].body;
    assert.equal(body.response_format.json_schema.name, 'verdict');
    assert.equal(body.response_format.json_schema.strict, true);
    assert.deepEqual(body.response_format.json_schema.schema, jsonSchemaOf(Verdict));
  });

  it('re-asks after malformed JSON and succeeds on attempt 2, with the problem in the conversation and usage summed', async () => {
    ctx.server.reply(
      {
        text: '{"critical_step": 4, "root_cause": "premature_stop", "rationale": "stopped',
        usage: { inputTokens: 100, outputTokens: 30, cachedInputTokens: 0 },
      },
      { text: `Sure!\n\`\`\`json\n${JSON.stringify(good)}\n\`\`\``, usage: { inputTokens: 150, outputTokens: 25, cachedInputTokens: 100 } },
    );
    const invalid: string[] = [];
    const result = await completeStructured(
      openaiClient(ctx.server, { structuredOutput: 'prompt' }),
      { system: 'S', messages: [user('audit this')] },
      Verdict,
      {
        name: 'verdict',
        onInvalid: (_attempt, problem) => invalid.push(problem),
      },
    );
    assert.deepEqual(result.value, good);
    assert.equal(result.attempts, 2);
    assert.equal(result.transportAttempts, 2);
    assert.deepEqual(result.usage, { inputTokens: 250, outputTokens: 55, cachedInputTokens: 100, cacheWriteInputTokens: 0 });
    assert.equal(invalid.length, 1);
    assert.match(invalid[0], /not valid JSON/);

    const [first, second] = ctx.server.requests.map((r) => r.body.messages as Array<{ role: string; content: string }>);
    assert.equal(second.length, first.length + 2);
    assert.deepEqual(second.slice(0, first.length), first, 'the re-ask extends the conversation without changing it');
    assert.equal(second[first.length].role, 'assistant');
    assert.match(second[first.length].content, /"rationale": "stopped$/);
    assert.equal(second[first.length + 1].role, 'user');
    assert.match(second[first.length + 1].content, /Your previous reply could not be used: the reply is not valid JSON/);
    const instructions = second.filter((m) => m.content.includes('Respond with only one JSON object'));
    assert.equal(instructions.length, 1, 'the schema instruction is sent once, in the original user message');
  });

  it('re-asks with the zod problem when the JSON has the wrong shape (Anthropic)', async () => {
    ctx.server.reply({ text: JSON.stringify({ ...good, root_cause: 'bad luck' }) }, { text: JSON.stringify(good) });
    const result = await completeStructured(anthropicClient(ctx.server), { messages: [user('audit')] }, Verdict);
    assert.equal(result.attempts, 2);
    const reask = ctx.server.requests[1].lastUserText;
    assert.match(reask, /does not match the schema: .*root_cause/);
  });

  it('fails after exactly 3 attempts when the output is always malformed, with a clear message', async () => {
    ctx.server.script(() => ({ text: 'I think the critical step is 4.', usage: { inputTokens: 10, outputTokens: 5 } }));
    const error = await rejection(completeStructured(openaiClient(ctx.server), { messages: [user('audit')] }, Verdict, { name: 'verdict', attempts: 3 }));
    assert.ok(error instanceof StructuredOutputError);
    assert.equal(error.kind, 'invalid_output');
    assert.equal(error.attempts, 3);
    assert.equal(ctx.server.requests.length, 3);
    assert.equal(error.message, 'openai gpt-mock: output for "verdict" was invalid after 3 attempts; last problem: no JSON object found in the reply');
    assert.deepEqual(error.usage, { inputTokens: 30, outputTokens: 15, cachedInputTokens: 0, cacheWriteInputTokens: 0 });
    assert.equal(error.lastOutput, 'I think the critical step is 4.');
  });

  it('mentions truncation when the reply hit the token limit', async () => {
    ctx.server.script(() => ({ text: '{"critical_step": 4, "rationale": "', finishReason: 'length' }));
    const error = await rejection(completeStructured(openaiClient(ctx.server), { messages: [user('audit')] }, Verdict, { attempts: 1 }));
    assert.match(error.message, /invalid after 1 attempt; last problem: the reply was cut off at the output token limit/);
  });

  it('does not re-ask on transport errors: they propagate as ModelError', async () => {
    ctx.server.script(() => ({ fault: { type: 'status', status: 400, message: 'bad schema' } }));
    const error = await rejection(completeStructured(openaiClient(ctx.server), { messages: [user('audit')] }, Verdict));
    assert.ok(error instanceof ModelError && !(error instanceof StructuredOutputError));
    assert.equal(error.kind, 'bad_request');
    assert.equal(ctx.server.requests.length, 1);
  });

  it('stops on abort between attempts', async () => {
    const controller = new AbortController();
    ctx.server.script(() => {
      controller.abort();
      return { text: 'not json' };
    });
    const error = await rejection(completeStructured(openaiClient(ctx.server), { messages: [user('audit')] }, Verdict, { signal: controller.signal }));
    assert.equal(error.name, 'AbortError');
    assert.ok(ctx.server.requests.length <= 1);
  });
});
