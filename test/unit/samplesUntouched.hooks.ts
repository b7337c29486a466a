// Root hooks (see .mocharc.json): the unit suite never writes into samples/ or test/fixtures/,
// which users and other tests read as they are committed. A test that audits or scores a
// repository file in place fails the run here, naming the files it changed.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const repo = join(__dirname, '..', '..');
const WATCHED = ['samples', 'test/fixtures'];

function snapshot(): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      // samples/.scratch is the integration suite's git-ignored work folder, not a committed file.
      if (entry.isDirectory()) {
        if (entry.name !== '.scratch') walk(path);
      } else if (entry.isFile()) files.set(relative(repo, path), createHash('sha256').update(readFileSync(path)).digest('hex'));
    }
  };
  for (const dir of WATCHED) walk(join(repo, dir));
  return files;
}

let before: Map<string, string>;

export const mochaHooks = {
  beforeAll(): void {
    before = snapshot();
  },
  afterAll(): void {
    const after = snapshot();
    const changed = [...new Set([...before.keys(), ...after.keys()])].filter((f) => before.get(f) !== after.get(f));
    if (changed.length) throw new Error(`the unit tests changed files under ${WATCHED.join(', ')}: ${changed.slice(0, 10).join(', ')}`);
  },
};
