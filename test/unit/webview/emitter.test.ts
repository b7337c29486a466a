import { strict as assert } from 'node:assert';
import { Emitter, Gate } from '../../../webview/src/editor/emitter';

type Events = { view: string; selection: number };

describe('webview emitter and gate', () => {
  it('holds back handlers registered behind a closed gate, then replays their events in order', () => {
    const emitter = new Emitter<Events>();
    const gate = new Gate();
    const seen: string[] = [];
    emitter.on('view', (v) => seen.push(`now:view:${v}`));
    emitter.behind(gate, () => {
      emitter.on('view', (v) => seen.push(`later:view:${v}`));
      emitter.on('selection', (s) => seen.push(`later:selection:${s}`));
    });
    emitter.on('selection', (s) => seen.push(`now:selection:${s}`));
    emitter.emit('view', 'a');
    emitter.emit('selection', 3);
    emitter.emit('view', 'b');
    assert.deepEqual(seen, ['now:view:a', 'now:selection:3', 'now:view:b']);
    gate.open();
    assert.deepEqual(seen.slice(3), ['later:view:a', 'later:selection:3', 'later:view:b']);
    emitter.emit('selection', 4);
    assert.deepEqual(seen.slice(6), ['later:selection:4', 'now:selection:4']);
    assert.equal(gate.isOpen, true);
  });

  it('unsubscribes gated handlers and runs held work once', () => {
    const emitter = new Emitter<Events>();
    const gate = new Gate();
    let calls = 0;
    const off = emitter.behind(gate, () => emitter.on('view', () => calls++));
    emitter.emit('view', 'a');
    off();
    emitter.emit('view', 'b');
    gate.open();
    gate.open();
    assert.equal(calls, 1, 'the event before unsubscribing is replayed, the one after is not');
    let ran = 0;
    gate.run(() => ran++);
    assert.equal(ran, 1, 'an open gate runs work at once');
  });
});
