import assert from 'node:assert/strict';
import { z } from 'zod';
import { backupOf } from '../../../src/core/editing/annotationEdits';
import { idKeyedRecord } from '../../../src/core/input/idKeyed';

describe('id-keyed objects keep ids such as __proto__ (issue 20 finding 6)', () => {
  it('idKeyedRecord keeps every key as an own entry and reports a bad value under its key', () => {
    const schema = idKeyedRecord(z.boolean({ message: 'expected true or false' }));
    const parsed = schema.parse(JSON.parse('{"__proto__": true, "constructor": false, "d1": true}'));
    assert.deepEqual(Object.keys(parsed), ['__proto__', 'constructor', 'd1']);
    assert.equal(parsed['__proto__'], true);
    assert.equal(parsed.toString, undefined, 'no prototype members are found under a missing id');
    const bad = schema.safeParse(JSON.parse('{"__proto__": "yes"}'));
    assert.ok(!bad.success);
    assert.deepEqual(bad.error.issues[0].path, ['__proto__']);
    assert.ok(!schema.safeParse([true]).success);
  });

  it('the editor backup keeps an unsaved annotation of the record __proto__', () => {
    const backup = backupOf(new Map([['__proto__', { criticalStep: 1 }]]), new Map());
    assert.deepEqual(Object.keys(backup.annotations), ['__proto__']);
    assert.equal(JSON.stringify(backup.annotations), '{"__proto__":{"criticalStep":1}}');
  });
});
