import assert from 'node:assert/strict';
import { messageBody } from '../../../src/core/view/messageBody';
import { countRecordTokens } from '../../../src/core/view/recordTokens';
import { tokenCount } from '../../../src/core/stats/tokens';
import { trajectoryOf } from '../helpers';

const t = trajectoryOf({
  query: 'Who designed the Ravenna ferry terminal?',
  predicted_answer: 'Aldo Brera',
  trajectory: [
    { role: 'user', content: 'Who designed the Ravenna ferry terminal?' },
    {
      role: 'assistant',
      reasoning_content: 'Search first.',
      content: '',
      tool_calls: [{ id: 's1', type: 'function', function: { name: 'search', arguments: '{"query": ["terminal", }' } }],
    },
    { role: 'tool', tool_call_id: 's1', content: 'designed by <b>aldo brera</b> studio' },
    { role: 'assistant', content: 'Final answer: Aldo Brera' },
  ],
});

describe('editor message bodies', () => {
  it('carry the text as is, raw arguments with their validity, reasoning and the answered call', () => {
    assert.deepEqual(messageBody(t.messages[1]), {
      position: 1,
      content: '',
      reasoning: 'Search first.',
      toolCalls: [{ id: 's1', name: 'search', rawArguments: '{"query": ["terminal", }', argumentsValid: false }],
    });
    assert.deepEqual(messageBody(t.messages[2]), { position: 2, content: 'designed by <b>aldo brera</b> studio', toolCalls: [], toolCallId: 's1' });
  });
});

describe('editor token counts', () => {
  it('count each message (content + reasoning) and total tool returns, reasoning and the predicted answer', async () => {
    const counted = await countRecordTokens(t);
    const perMessage = t.messages.map((m) => tokenCount(m.content) + tokenCount(m.reasoning));
    assert.deepEqual(counted?.counts, perMessage);
    assert.deepEqual(counted?.totals, {
      total: perMessage.reduce((a, b) => a + b, 0),
      toolReturns: tokenCount(t.messages[2].content),
      reasoning: tokenCount('Search first.'),
      predictedAnswer: tokenCount('Aldo Brera'),
    });
  });
  it('resolve undefined when cancelled', async () => {
    assert.equal(await countRecordTokens(t, { isCancelled: () => true }), undefined);
  });
});
