// linkToolReturns finds a return's issuer by scanning back, and by an index of every earlier call
// when the issuer is far: both must give the latest step that issued the id before the return.
import assert from 'node:assert/strict';
import { linkToolReturns } from '../../../src/core/formats/toolCalls';
import type { Message } from '../../../src/core/model/trajectory';

function call(position: number, id: string | undefined): Message {
  return { position, role: 'assistant', content: '', toolCalls: [{ id, name: 'web_search', arguments: {}, rawArguments: '{}', argumentsValid: true }] };
}
function note(position: number): Message {
  return { position, role: 'assistant', content: `thinking ${position}`, toolCalls: [] };
}
function ret(position: number, toolCallId?: string): Message {
  return { position, role: 'tool', content: 'result', toolCalls: [], ...(toolCallId ? { toolCallId } : {}) };
}

describe('linkToolReturns', () => {
  it('links a return to a call 200 messages back, and to the latest issuer of a reused id', () => {
    const messages: Message[] = [call(0, 'far'), call(1, 'reused')];
    while (messages.length < 200) messages.push(note(messages.length));
    messages.push(call(200, 'reused'));
    while (messages.length < 300) messages.push(note(messages.length));
    messages.push(ret(300, 'far'), ret(301, 'reused'), ret(302, 'unknown'));
    linkToolReturns(messages);
    assert.equal(messages[300].issuedBy, 0);
    assert.equal(messages[301].issuedBy, 200);
    // An id no call has: the last step with calls, as for a return without an id.
    assert.equal(messages[302].issuedBy, 200);
  });

  it('links near returns by id, and returns without ids by order', () => {
    const messages: Message[] = [
      call(0, 'a'),
      ret(1, 'a'),
      note(2),
      { ...call(3, undefined), toolCalls: [call(3, 'b').toolCalls[0], call(3, 'c').toolCalls[0]] },
      ret(4),
      ret(5),
    ];
    linkToolReturns(messages);
    assert.equal(messages[1].issuedBy, 0);
    assert.deepEqual([messages[4].issuedBy, messages[4].toolCallId, messages[5].issuedBy, messages[5].toolCallId], [3, 'b', 3, 'c']);
  });
});
