import * as assert from 'node:assert/strict';
import { hasLineLongerThan } from '../../../webview/src/editor/timeline/messageBody';

describe('webview message body: long lines', () => {
  it('finds a line longer than the limit, first, middle or last, and only then', () => {
    const long = 'x'.repeat(11);
    assert.equal(hasLineLongerThan('short', 10), false);
    assert.equal(hasLineLongerThan('x'.repeat(10), 10), false);
    assert.equal(hasLineLongerThan(long, 10), true);
    assert.equal(hasLineLongerThan(`${long}\nab`, 10), true);
    assert.equal(hasLineLongerThan(`ab\n${long}\ncd`, 10), true);
    assert.equal(hasLineLongerThan(`ab\ncd\n${long}`, 10), true);
    assert.equal(hasLineLongerThan(`${'y'.repeat(10)}\n${'z'.repeat(10)}\n`, 10), false, 'a long text of short lines');
  });
});
