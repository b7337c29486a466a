// Root setup (see .mocharc.json): the CLI's default cache folder, where `stats` and `collection`
// keep the collection index, is a fresh temp folder for the unit suite, so a test never writes
// into the user's ~/.cache and never reads an index an earlier run left there.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.XDG_CACHE_HOME = mkdtempSync(join(tmpdir(), 'trajaudit-test-cache-'));
