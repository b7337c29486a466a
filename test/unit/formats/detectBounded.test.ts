// Every reader's detect runs on every loaded value (issue 15 item 6): the Tongyi tag search reads
// only the first turns' text, so a long chat is not scanned once per file just to be told apart.
import assert from 'node:assert/strict';
import { magenticOneReader } from '../../../src/core/formats/magenticOne';
import { openAiChatReader } from '../../../src/core/formats/openaiChat';
import { smolagentsReader } from '../../../src/core/formats/smolagents';
import { tongyiReader } from '../../../src/core/formats/tongyi';
import { InputError } from '../../../src/core/input/inputError';
import { loadText } from '../../../src/core/load/loadFile';
import { countingLateReads } from '../helpers';

/** Loading `text` fails with one line that matches `pattern`. */
function assertLoadError(text: string, pattern: RegExp): void {
  assert.throws(
    () => loadText(text, 'long.json'),
    (error: unknown) => error instanceof InputError && !error.message.includes('\n') && pattern.test(error.message),
  );
}

function magenticLog(length: number): Record<string, unknown>[] {
  const agents = ['Orchestrator (thought)', 'WebSurfer', 'Orchestrator (-> WebSurfer)', 'Coder'];
  return [
    { role: 'human', content: 'Which river?' },
    ...Array.from({ length: length - 1 }, (_, i) => ({ role: agents[i % agents.length], content: `turn ${i}` })),
  ];
}

function smolagentsMemory(length: number): Record<string, unknown>[] {
  return [
    { system_prompt: 'You are an agent.' },
    { task: 'Which river?' },
    ...Array.from({ length: length - 2 }, (_, i) => ({ step_number: i + 1, model_output: `thought ${i}`, observations: `seen ${i}` })),
  ];
}

describe('bounded detection', () => {
  it('the Tongyi detect reads no late message of a chat whose first turns carry no tool tags', () => {
    const reads = new Map<number, number>();
    const messages: Record<string, unknown>[] = [{ role: 'user', content: 'Which river?' }];
    for (let i = 1; i < 200; i++) {
      const message: Record<string, unknown> = { role: i % 2 ? 'assistant' : 'user' };
      Object.defineProperty(message, 'content', {
        enumerable: true,
        get: () => {
          reads.set(i, (reads.get(i) ?? 0) + 1);
          return `plain text ${i}`;
        },
      });
      messages.push(message);
    }
    assert.equal(tongyiReader.detect({ messages }), undefined);
    // The tag search stops at the first turns, and the shape of every message is checked only for a file they took for Tongyi.
    for (let i = 30; i < 200; i++) assert.equal(reads.get(i), undefined, `message ${i}`);
  });

  it('still finds the tags in the first turns', () => {
    const messages = [
      { role: 'system', content: 'Call tools as <tool_call>{"name": …}</tool_call>.' },
      { role: 'user', content: 'Which river?' },
      ...Array.from({ length: 100 }, (_, i) => ({ role: i % 2 ? 'user' : 'assistant', content: `turn ${i}` })),
    ];
    assert.equal(tongyiReader.detect({ messages })?.score, 0.8);
  });
});

describe('bounded detection: magentic-one', () => {
  it('reads the content of no message past the first fifty', () => {
    const reads = new Map<number, number>();
    const messages = magenticLog(300).map((message, i) => {
      const counted: Record<string, unknown> = { role: message.role };
      Object.defineProperty(counted, 'content', {
        enumerable: true,
        get: () => {
          reads.set(i, (reads.get(i) ?? 0) + 1);
          return message.content;
        },
      });
      return counted;
    });
    assert.equal(magenticOneReader.detect(messages)?.score, 0.85);
    for (let i = 50; i < 300; i++) assert.equal(reads.get(i), undefined, `message ${i}`);
  });

  it('reads no AgentChat message past the first fifty', () => {
    const messages = Array.from({ length: 300 }, (_, i) => ({ source: i ? 'assistant' : 'user', type: 'TextMessage', content: `turn ${i}` }));
    const { list, lateReads } = countingLateReads(messages, 50);
    assert.equal(magenticOneReader.detect(list)?.score, 0.85);
    assert.equal(lateReads(), 0);
  });

  it('still names an early bad entry, and the loader names a late one', () => {
    const early = magenticLog(300);
    early[3] = { role: 'Coder', content: 7 };
    assert.deepEqual(magenticOneReader.detect(early)?.missing, ['a string `content` and `role` in entry 3']);
    const late = magenticLog(300);
    late[250] = { role: 'Coder', content: 7 };
    assert.equal(magenticOneReader.detect(late)?.score, 0.85);
    assertLoadError(JSON.stringify(late), /long\.json:\d+:\d+: .*\$\[250\]\.content/);
  });
});

describe('bounded detection: smolagents', () => {
  it('reads no step past the first fifty', () => {
    const { list, lateReads } = countingLateReads(smolagentsMemory(300), 50);
    assert.equal(smolagentsReader.detect({ steps: list })?.score, 0.9);
    assert.equal(lateReads(), 0);
  });

  it('still names an early bad step, and the loader names a late one', () => {
    const early = smolagentsMemory(300);
    early[4] = { unrelated: true };
    assert.deepEqual(smolagentsReader.detect({ steps: early })?.missing, ['a memory step (task, model_output, observations…) at steps[4]']);
    const late = smolagentsMemory(300);
    late[250] = { step_number: 249, model_output: 7 };
    assert.equal(smolagentsReader.detect({ steps: late })?.score, 0.9);
    assertLoadError(JSON.stringify({ steps: late }), /long\.json:\d+:\d+: .*\$\.steps\[250\]\.model_output/);
  });
});

describe('bounded detection: openai-chat', () => {
  function chat(length: number): Record<string, unknown>[] {
    return [
      { role: 'user', content: 'Which river?' },
      ...Array.from({ length: length - 1 }, (_, i) => ({ role: i % 2 ? 'user' : 'assistant', content: `turn ${i}` })),
    ];
  }

  it('reads no message past the first fifty, in an array or under `messages`', () => {
    const bare = countingLateReads(chat(300), 50);
    assert.equal(openAiChatReader.detect(bare.list)?.score, 0.6);
    assert.equal(bare.lateReads(), 0);
    const wrapped = countingLateReads(chat(300), 50);
    assert.equal(openAiChatReader.detect({ messages: wrapped.list })?.score, 0.6);
    assert.equal(wrapped.lateReads(), 0);
  });

  it('still names an early message without a role or with a foreign one, and the loader names a late one', () => {
    const early = chat(300);
    early[7] = { content: 'no role' };
    assert.deepEqual(openAiChatReader.detect({ messages: early })?.missing, ['a `role` in message 7']);
    const foreign = chat(300);
    foreign[9] = { role: 'WebSurfer', content: 'x' };
    assert.equal(openAiChatReader.detect({ messages: foreign })?.score, 0.3);
    const late = chat(300);
    late[250] = { role: 'WebSurfer', content: 'x' };
    assert.equal(openAiChatReader.detect({ messages: late })?.score, 0.6);
    assertLoadError(JSON.stringify({ messages: late }), /long\.json:\d+:\d+: .*\$\.messages\[250\]\.role.*expected role system, user, assistant or tool/);
    const lateBare = chat(300);
    lateBare[250] = { content: 'no role' };
    assertLoadError(JSON.stringify(lateBare), /long\.json:\d+:\d+: .*\$\[250\]\.role/);
  });
});
