import assert from 'node:assert/strict';
import { existsSync, lstatSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_AUDITS_PER_CONFIGURATION } from '../../src/core/audit/sidecarAudits';
import { InputError } from '../../src/core/input/inputError';
import { emptySidecar, readSidecar, serializeSidecar, sha256Of, sidecarPathFor, writeSidecar } from '../../src/core/sidecar/sidecarFile';
import { runCli, tempDir, writeTemp } from './helpers';

const messages = [
  { role: 'user', content: 'q' },
  { role: 'assistant', content: 'let me search', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '{"query":"x"}' } }] },
  { role: 'tool', tool_call_id: 'c1', content: 'r' },
  { role: 'assistant', content: 'The answer is B' },
];
const line = (id: string, extra = '') => JSON.stringify({ id, messages: messages.map((m, i) => (i === 0 ? { ...m, content: `q ${id}${extra}` } : m)) });

function auditWith(id: string, text: string) {
  return {
    id,
    method: 'searchauditor',
    provider: 'openai',
    model: 'm',
    createdAt: '2026-01-01T00:00:00Z',
    promptVersion: 'searchauditor/v1',
    diagnosis: { criticalStep: 1, rootCause: 'constraint_neglect', rationale: text, citedSteps: [1] },
    repair: { directives: ['d'] },
    branches: ['holistic', 'backward', 'forward'].map((name) => ({ name, criticalStep: 1, rootCause: 'constraint_neglect', rationale: text })),
  };
}

describe('audit sidecar: ids, reuse, bounds, shared texts, links (issue 20 findings 6, 9, 10)', () => {
  it('keeps records whose ids are __proto__ or constructor, and a human annotation under __proto__ survives audits of other records', async () => {
    const dir = tempDir();
    const file = writeTemp(dir, 'b.traj.jsonl', ['a', '__proto__', 'constructor', 'b'].map((id) => line(id)).join('\n') + '\n');
    const first = await runCli(['audit', file, '--method', 'heuristic']);
    assert.match(first.err, /4 audit\(s\) written/);
    const raw = JSON.parse(readFileSync(sidecarPathFor(file), 'utf8'));
    assert.deepEqual(Object.keys(raw.records).sort(), ['__proto__', 'a', 'b', 'constructor']);
    raw.records.__proto__.annotation = { criticalStep: 1, rootCause: 'constraint_neglect', annotator: 'ann' };
    writeFileSync(sidecarPathFor(file), JSON.stringify(raw));
    assert.equal(readSidecar(sidecarPathFor(file))?.records['__proto__']?.annotation?.annotator, 'ann');
    await runCli(['audit', file, '--method', 'heuristic', '--record', 'a', '--rerun']);
    const back = JSON.parse(readFileSync(sidecarPathFor(file), 'utf8'));
    assert.equal(back.records.__proto__.annotation.annotator, 'ann');
    assert.equal(back.records.__proto__.audits.length, 1);
    assert.equal(back.records.a.audits.length, 2);
  });

  it('reuses unchanged results: a second heuristic run adds nothing; an edited record is audited again; re-runs stay bounded', async function () {
    this.timeout(60_000);
    const dir = tempDir();
    const n = 2000;
    const ids = Array.from({ length: n }, (_, i) => `r${i}`);
    const file = writeTemp(dir, 'big.traj.jsonl', ids.map((id) => line(id)).join('\n') + '\n');
    assert.match((await runCli(['audit', file, '--method', 'heuristic'])).err, new RegExp(`^${n} audit\\(s\\) written`, 'm'));
    const before = readFileSync(sidecarPathFor(file), 'utf8');
    const again = await runCli(['audit', file, '--method', 'heuristic']);
    assert.match(again.err, new RegExp(`0 audit\\(s\\) written .*\\(${n} unchanged, reused\\)`));
    assert.equal(readFileSync(sidecarPathFor(file), 'utf8'), before, 'the sidecar is not rewritten or grown');
    // A different record on line 1: only it is audited again; its neighbours keep their results.
    writeFileSync(file, [line('r0', ' edited'), ...ids.slice(1).map((id) => line(id))].join('\n') + '\n');
    assert.match((await runCli(['audit', file, '--method', 'heuristic'])).err, /^1 audit\(s\) written/m);
    const small = writeTemp(dir, 's.traj.jsonl', ['x', 'y'].map((id) => line(id)).join('\n') + '\n');
    for (let i = 0; i < MAX_AUDITS_PER_CONFIGURATION + 3; i++) await runCli(['audit', small, '--method', 'heuristic', '--rerun']);
    const sidecar = readSidecar(sidecarPathFor(small))!;
    assert.equal(sidecar.records.x.audits?.length, MAX_AUDITS_PER_CONFIGURATION);
    // Another configuration (other tool names) is a result of its own, kept beside the first.
    await runCli(['audit', small, '--method', 'heuristic', '--search-names', 'search,web_search']);
    assert.equal(readSidecar(sidecarPathFor(small))!.records.x.audits?.length, MAX_AUDITS_PER_CONFIGURATION + 1);
  });

  it('stores a long text repeated in audits once, reads it back in every place, and names a dangling reference', () => {
    const dir = tempDir();
    const file = writeTemp(dir, 'a.json', JSON.stringify({ messages }));
    const path = sidecarPathFor(file);
    const text = 'the same long rationale '.repeat(20_000); // ~480 KB
    const sidecar = emptySidecar(file, sha256Of(readFileSync(file)), 'openai-chat');
    sidecar.records['0'] = { audits: [auditWith('a1', text), auditWith('a2', text)] as never };
    writeSidecar(path, sidecar);
    const size = statSync(path).size;
    assert.ok(size < text.length * 1.2, `stored once (${size} bytes for a ${text.length}-character text used 8 times)`);
    const back = readSidecar(path)!;
    for (const a of back.records['0'].audits ?? []) {
      assert.equal(a.diagnosis?.rationale, text);
      for (const b of a.branches ?? []) assert.equal((b as { rationale?: string }).rationale, text);
    }
    const raw = JSON.parse(readFileSync(path, 'utf8'));
    assert.equal(raw.schema, 'trajaudit.audit/v2');
    assert.equal(Object.keys(raw.texts).length, 1);
    raw.texts = {};
    writeFileSync(path, JSON.stringify(raw, null, 2));
    assert.throws(
      () => readSidecar(path),
      (e: InputError) =>
        /text reference "[0-9a-f]{64}" is not in the sidecar's "texts" table/.test(e.message) &&
        e.where.path === '$.records["0"].audits[0].diagnosis.rationale',
    );
  });

  it('writes many records in pieces, exactly as JSON.stringify would; a sidecar over the limit is refused with a message and the old one kept', () => {
    const dir = tempDir();
    const file = writeTemp(dir, 'a.json', JSON.stringify({ messages }));
    const path = sidecarPathFor(file);
    const sidecar = emptySidecar(file, 'abc', 'openai-chat');
    for (let i = 0; i < 50; i++)
      sidecar.records[`r${i}`] = { annotation: { criticalStep: 1, rationale: `note ${i}` }, audits: [auditWith(`a${i}`, 'short')] as never };
    (sidecar as Record<string, unknown>).extra = { nested: [1, { x: 'y' }], empty: {} };
    assert.equal(serializeSidecar(sidecar), `${JSON.stringify(sidecar, null, 2)}\n`);
    writeSidecar(path, sidecar);
    const old = readFileSync(path, 'utf8');
    sidecar.records.big = { annotation: { rationale: 'x'.repeat(100_000) } };
    assert.throws(
      () => writeSidecar(path, sidecar, { maxBytes: 64 * 1024 }),
      (e: InputError) => e instanceof InputError && /the sidecar would be 0\.2 MiB, over the 0\.1 MiB a sidecar may hold; nothing was written/.test(e.message),
    );
    assert.equal(readFileSync(path, 'utf8'), old);
  });

  it('refuses a sidecar that is a symbolic link, for reading and writing; the link and its target are left as they are', async () => {
    const dir = tempDir();
    const other = writeTemp(dir, 'other.traj.json', JSON.stringify({ messages }));
    const mine = writeTemp(dir, 'mine.traj.json', JSON.stringify({ messages: messages.map((m, i) => (i === 0 ? { ...m, content: 'mine' } : m)) }));
    const otherSidecar = emptySidecar(other, sha256Of(readFileSync(other)), 'openai-chat');
    otherSidecar.records['0'] = { annotation: { criticalStep: 1, annotator: 'other' } };
    writeSidecar(sidecarPathFor(other), otherSidecar);
    const otherText = readFileSync(sidecarPathFor(other), 'utf8');
    symlinkSync(join(dir, 'other.traj.json.audit.json'), sidecarPathFor(mine));
    const result = await runCli(['audit', mine, '--method', 'heuristic']);
    assert.notEqual(result.code, 0);
    assert.match(result.err, /mine\.traj\.json\.audit\.json: is a symbolic link \(to .*other\.traj\.json\.audit\.json\); a sidecar belongs to one trajectory/);
    assert.doesNotMatch(result.err, /internal error/);
    assert.ok(lstatSync(sidecarPathFor(mine)).isSymbolicLink());
    assert.equal(readFileSync(sidecarPathFor(other), 'utf8'), otherText);
    assert.throws(() => readSidecar(sidecarPathFor(mine)), /is a symbolic link/);
    assert.ok(!existsSync(`${sidecarPathFor(mine)}.lock`));
  });

  it('reads v1: an annotation without its own hash is taken as made against trajectory.sha256, and is written as v2 with it', () => {
    const dir = tempDir();
    const file = writeTemp(dir, 'a.json', JSON.stringify({ messages }));
    const path = writeTemp(
      dir,
      'a.json.audit.json',
      JSON.stringify({ schema: 'trajaudit.audit/v1', trajectory: { file: 'a.json', sha256: 'old' }, records: { '0': { annotation: { criticalStep: 1 } } } }),
    );
    const sidecar = readSidecar(path)!;
    assert.equal(sidecar.schema, 'trajaudit.audit/v2');
    assert.equal(sidecar.records['0'].annotation?.trajectorySha256, 'old');
    writeSidecar(path, { ...sidecar, trajectory: { ...sidecar.trajectory, sha256: sha256Of(readFileSync(file)) } });
    assert.equal(JSON.parse(readFileSync(path, 'utf8')).records['0'].annotation.trajectorySha256, 'old');
  });
});
