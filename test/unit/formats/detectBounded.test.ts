// Every reader's detect runs on every loaded value (issue 15 item 6): the Tongyi tag search reads
// only the first turns' text, so a long chat is not scanned once per file just to be told apart.
import assert from 'node:assert/strict';
import { tongyiReader } from '../../../src/core/formats/tongyi';

describe('bounded detection', () => {
  it('the Tongyi detect reads a late message only for its shape, not to search its text', () => {
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
    // One read each to see the content is no list of parts; the tag search stops at the first turns.
    for (let i = 30; i < 200; i++) assert.equal(reads.get(i), 1, `message ${i}`);
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
