import assert from 'node:assert/strict';
import { decodeText } from '../../../src/core/input/readText';
import { InputError } from '../../../src/core/input/inputError';
import { runCli, tempDir, writeTemp } from '../helpers';

const trajectory = JSON.stringify({
  messages: [
    { role: 'user', content: 'Which lake — Ōtautahi? 湖' },
    { role: 'assistant', content: 'Lake Ellesmere 🦆' },
  ],
});

function utf16(text: string, endian: 'le' | 'be', bom = true): Buffer {
  const le = Buffer.from(text, 'utf16le');
  const body = endian === 'le' ? le : Buffer.from(le).swap16();
  return Buffer.concat([bom ? Buffer.from(endian === 'le' ? [0xff, 0xfe] : [0xfe, 0xff]) : Buffer.alloc(0), body]);
}

function problem(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof InputError, `an InputError, got ${String(error)}`);
    return error.message;
  }
  assert.fail('expected an InputError');
}

describe('text encodings', () => {
  it('UTF-16 with a byte-order mark, little- and big-endian, reads as the same text as UTF-8', () => {
    assert.equal(decodeText(utf16(trajectory, 'le'), 'x.json'), trajectory);
    assert.equal(decodeText(utf16(trajectory, 'be'), 'x.json'), trajectory);
    assert.equal(decodeText(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(trajectory)]), 'x.json'), trajectory);
  });

  it('UTF-16 without a byte-order mark is named as such, with what is expected', () => {
    assert.match(
      problem(() => decodeText(utf16(trajectory, 'le', false), 'x.json')),
      /x\.json:1:1: UTF-16 text without a byte-order mark; expected UTF-8 text/,
    );
    assert.match(
      problem(() => decodeText(utf16(trajectory, 'be', false), 'x.json')),
      /UTF-16 text without a byte-order mark/,
    );
  });

  it('a byte-order mark followed by something else is refused, not read as text', () => {
    // Odd length, a lone surrogate, and UTF-32 (FF FE 00 00): none is UTF-16 text.
    assert.match(
      problem(() => decodeText(Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d]), 'x.json')),
      /x\.json:1:1: invalid UTF-16 after a little-endian byte-order mark/,
    );
    assert.match(
      problem(() => decodeText(Buffer.from([0xfe, 0xff, 0xd8, 0x00, 0x00, 0x7b]), 'x.json')),
      /invalid UTF-16 after a big-endian byte-order mark/,
    );
    const utf32 = Buffer.from([0xff, 0xfe, 0x00, 0x00, 0x7b, 0x00, 0x00, 0x00, 0x7d, 0x00, 0x00, 0x00]);
    assert.match(
      problem(() => decodeText(utf32, 'x.json')),
      /invalid UTF-16/,
    );
    assert.match(
      problem(() => decodeText(utf16('   \n', 'le'), 'x.json')),
      /only whitespace/,
    );
  });

  it('the CLI inspects a UTF-16 trajectory written by Windows tools, and leaves the file as it was', async () => {
    const dir = tempDir('trajaudit-enc-');
    const path = writeTemp(dir, 'powershell.traj.json', utf16(trajectory, 'le'));
    const { code, out, err } = await runCli(['inspect', path, '--json']);
    assert.equal(code, 0, err);
    const report = JSON.parse(out);
    const record = Array.isArray(report) ? report[0] : report;
    assert.match(JSON.stringify(record), /Lake Ellesmere 🦆/);
    assert.deepEqual(await import('node:fs').then((fs) => fs.readFileSync(path)), utf16(trajectory, 'le'));
  });
});
