import { strict as assert } from 'node:assert';
import { Emitter, Gate } from '../../../webview/src/editor/emitter';

type Events = { view: string; selection: number };

describe('webview emitter and gate', () => {
  it('calls handlers in the order they subscribed, and not after they unsubscribe', () => {
    const emitter = new Emitter<Events>();
    const seen: string[] = [];
    emitter.on('view', (v) => seen.push(`first:${v}`));
    const off = emitter.on('view', (v) => seen.push(`second:${v}`));
    emitter.on('selection', (s) => seen.push(`selection:${s}`));
    emitter.emit('view', 'a');
    off();
    emitter.emit('view', 'b');
    emitter.emit('selection', 3);
    assert.deepEqual(seen, ['first:a', 'second:a', 'first:b', 'selection:3']);
  });

  it('holds work until the gate opens, runs it once in order, then runs new work at once', () => {
    const gate = new Gate();
    const ran: number[] = [];
    gate.run(() => ran.push(1));
    gate.run(() => ran.push(2));
    assert.equal(ran.length, 0);
    assert.equal(gate.isOpen, false);
    gate.open();
    gate.open();
    assert.deepEqual(ran, [1, 2]);
    gate.run(() => ran.push(3));
    assert.deepEqual(ran, [1, 2, 3], 'an open gate runs work at once');
  });
});
