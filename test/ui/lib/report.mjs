// A tiny TAP-like reporter for the UI checks: `ok N - name` / `not ok N - name` lines,
// a diagnostic block under every failure, and a summary. No test framework: each check is
// an async function that throws (node:assert) to fail; a check can also be skipped.
import { inspect } from 'node:util';

export function createReporter({ out = process.stdout, onFailure } = {}) {
  const results = [];
  let n = 0;
  const print = (line) => out.write(`${line}\n`);

  /**
   * Runs `body` as one check; never throws. `timeoutMs` bounds it (the body keeps running in
   * the background if it ignores the timeout, but the check fails and the run moves on).
   * Returns true when it passed.
   */
  async function check(name, body, { timeoutMs = 60_000 } = {}) {
    const number = ++n;
    const started = Date.now();
    let timer;
    try {
      const detail = await Promise.race([
        Promise.resolve().then(body),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
      const ms = Date.now() - started;
      results.push({ name, status: 'ok', ms });
      print(`ok ${number} - ${name}${typeof detail === 'string' && detail ? ` (${detail})` : ''} # ${ms} ms`);
      return true;
    } catch (error) {
      const ms = Date.now() - started;
      results.push({ name, status: 'not ok', ms, error });
      print(`not ok ${number} - ${name} # ${ms} ms`);
      const text = error instanceof Error ? (error.stack ?? error.message) : inspect(error);
      for (const line of text.split('\n').slice(0, 14)) print(`  # ${line}`);
      try {
        await onFailure?.(name, number, error);
      } catch {
        /* best effort */
      }
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  function skip(name, reason) {
    const number = ++n;
    results.push({ name, status: 'skip', ms: 0 });
    print(`ok ${number} - ${name} # SKIP ${reason}`);
  }

  function summary() {
    const passed = results.filter((r) => r.status === 'ok').length;
    const failed = results.filter((r) => r.status === 'not ok');
    const skipped = results.filter((r) => r.status === 'skip').length;
    print(`1..${n}`);
    print(`# ${passed} passed, ${failed.length} failed${skipped ? `, ${skipped} skipped` : ''}`);
    for (const f of failed) print(`# FAILED: ${f.name}`);
    return { passed, failed: failed.length, skipped, results };
  }

  return {
    check,
    skip,
    summary,
    get failed() {
      return results.some((r) => r.status === 'not ok');
    },
  };
}
