import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import type { AuditResult } from '../../../../src/core/audit/types';
import { startMockModelServer, type MockModelServer } from '../../../mock/mockModelServer';
import { runCli, tempDir } from '../../helpers';
import { searchAuditorScript } from '../fixtures';
import { baselineScript } from './baselineScript';
import { writeCorpus } from './corpus';

/** The parts of an audit that depend on the replies, not on when or how it ran. */
function comparable(audit: AuditResult) {
  const { id: _id, createdAt: _createdAt, usage, ...rest } = audit;
  return { ...rest, usage: { calls: usage.calls, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens } };
}

const sidecarAudits = (file: string): AuditResult[] => JSON.parse(readFileSync(`${file}.audit.json`, 'utf8')).records['0'].audits;

describe('trajaudit audit <folder> --batch [--detach] (CLI, issue 17)', function () {
  this.timeout(120000);
  let server: MockModelServer;
  beforeEach(async () => {
    server = await startMockModelServer({ script: searchAuditorScript({}, 0) });
  });
  afterEach(async () => server.close());

  it('100 trajectories: --detach submits stage 1 and exits 0; the rerun completes in three submissions in all, like the sync audit', async () => {
    const dir = tempDir('trajaudit-batch-cli-');
    const files = writeCorpus(join(dir, 'corpus'), 100);
    const args = [
      'audit',
      join(dir, 'corpus'),
      '--method',
      'searchauditor',
      '--batch',
      '--model',
      'mock-gpt',
      '--base-url',
      server.openaiBaseUrl,
      '--poll-seconds',
      '0',
    ];
    const detached = await runCli([...args, '--detach', '--json', '--price', '2,0.5,8']);
    assert.equal(detached.code, 0, detached.err);
    const waiting = JSON.parse(detached.out);
    assert.deepEqual([waiting.status, waiting.stage, waiting.phase], ['waiting', 'branches', 'submitted']);
    assert.match(waiting.message, /rerun the same command/);
    assert.equal(server.batchSubmissions.length, 1);
    assert.equal(server.batchSubmissions[0].customIds.length, 300);
    // The estimate is made before anything is submitted, at half the list prices given.
    assert.equal(waiting.estimate.requests, 500);
    assert.ok(waiting.estimate.input_tokens > 100_000, String(waiting.estimate.input_tokens));
    assert.deepEqual(waiting.estimate.batch_pricing, { input: 1, cachedInput: 0.25, output: 4 });
    const expected = (waiting.estimate.input_tokens * 1 + waiting.estimate.output_tokens * 4) / 1e6;
    assert.ok(Math.abs(waiting.estimate.cost_usd - expected) < 1e-9);
    assert.ok(!existsSync(`${files[0]}.audit.json`), 'nothing is written before the audit is complete');

    const done = await runCli([...args, '--json', '--price', '2,0.5,8']);
    assert.equal(done.code, 0, done.err);
    const report = JSON.parse(done.out);
    assert.equal(report.status, 'complete');
    assert.deepEqual(
      server.batchSubmissions.map((b) => b.customIds.length),
      [300, 100, 100],
    );
    assert.equal(report.results.length, 100);
    for (const r of report.results) assert.ok(r.audit && !r.cached, JSON.stringify(r).slice(0, 300));
    // The real usage, read back from every result, and its cost at batch prices.
    assert.equal(report.usage.calls, 500);
    const u = report.usage;
    assert.ok(Math.abs(report.cost_usd - ((u.input_tokens - u.cached_input_tokens) * 1 + u.cached_input_tokens * 0.25 + u.output_tokens * 4) / 1e6) < 1e-9);
    // Written to each sidecar as a synchronous audit writes it; the job folder is closed.
    assert.equal((await runCli(['validate', `${files[7]}.audit.json`])).code, 0);
    assert.deepEqual(readdirSync(join(dir, 'corpus', '.trajaudit-batch')), ['done']);

    // The same case audited synchronously against the same scripted replies.
    const syncFiles = writeCorpus(join(dir, 'sync'), 8);
    const sync = await runCli(['audit', syncFiles[7], '--method', 'searchauditor', '--model', 'mock-gpt', '--base-url', server.openaiBaseUrl]);
    assert.equal(sync.code, 0, sync.err);
    const batched = sidecarAudits(files[7]);
    assert.equal(batched.length, 1);
    const { trajectorySha256: _a, ...batchedAudit } = comparable(batched[0]);
    const { trajectorySha256: _b, ...syncAudit } = comparable(sidecarAudits(syncFiles[7])[0]);
    assert.deepEqual(batchedAudit, syncAudit);

    // Once stored, the results are reused: no new submission.
    const again = await runCli([...args, '--json']);
    assert.equal(again.code, 0, again.err);
    assert.ok(JSON.parse(again.out).results.every((r: { cached: boolean }) => r.cached));
    assert.equal(server.batchSubmissions.length, 3);
  });

  it('Anthropic: without prices the cost is null and says why; a case failing past the attempt limit is an error in the output, exit 1', async () => {
    const dir = tempDir('trajaudit-batch-cli-');
    writeCorpus(dir, 3);
    const failing = (ids: string[]) => ({ items: Object.fromEntries(ids.map((id) => [id, 'errored' as const])) });
    const args = [
      'audit',
      dir,
      '--method',
      'searchauditor',
      '--batch',
      '--provider',
      'anthropic',
      '--model',
      'mock-claude',
      '--base-url',
      server.anthropicBaseUrl,
    ];
    const first = await runCli([...args, '--detach', '--json']);
    assert.equal(first.code, 0, first.err);
    const estimate = JSON.parse(first.out).estimate;
    assert.equal(estimate.cost_usd, null);
    assert.match(estimate.note, /cost unknown.*--price/);
    // The adjudication of one case errors in every batch it is in: 3 submissions, the default limit.
    const key = server.batchSubmissions[0].customIds[0].replace(/-holistic-a1$/, '');
    const target = `${key}-adj-a1`;
    server.batchOutcome(failing([target]), failing([target]), failing([target]));
    const done = await runCli([...args, '--json', '--poll-seconds', '0']);
    assert.equal(done.code, 1, done.err);
    const report = JSON.parse(done.out);
    const errors = report.results.filter((r: { error?: string }) => r.error);
    assert.equal(errors.length, 1);
    assert.equal(errors[0].stage, 'adjudication');
    assert.match(errors[0].error, /^stage adjudication: batch item errored \(500\): /);
    assert.equal(report.results.filter((r: { audit?: unknown }) => r.audit).length, 2);
    assert.deepEqual(
      server.batchSubmissions.map((b) => b.customIds.length),
      [9, 3, 1, 1, 2],
      'the branches, the adjudications, two resubmissions of the failing one, the repairs of the other two',
    );
    // The error is recorded with the closed job, too.
    const [closed] = readdirSync(join(dir, '.trajaudit-batch', 'done'));
    const job = JSON.parse(readFileSync(join(dir, '.trajaudit-batch', 'done', closed, 'job.json'), 'utf8'));
    assert.deepEqual(
      job.errors.map((e: { stage: string }) => e.stage),
      ['adjudication'],
    );
  });

  it('a file edited between a detached run and the rerun is sent again with its new content; the others are not', async () => {
    const dir = tempDir('trajaudit-batch-cli-');
    const files = writeCorpus(dir, 3);
    const args = ['audit', dir, '--method', 'searchauditor', '--batch', '--model', 'mock-gpt', '--base-url', server.openaiBaseUrl, '--poll-seconds', '0'];
    assert.equal((await runCli([...args, '--detach'])).code, 0);
    const edited = JSON.parse(readFileSync(files[1], 'utf8'));
    edited.predicted_answer = 'Ragnar Östberg';
    writeFileSync(files[1], JSON.stringify(edited));
    const done = await runCli([...args, '--json']);
    assert.equal(done.code, 0, done.err);
    assert.deepEqual(
      server.batchSubmissions.map((b) => b.customIds.length),
      [9, 3, 3, 3],
      'the edited file’s three branches go into a new stage-1 batch',
    );
    const audits = JSON.parse(done.out).results.map((r: { audit: AuditResult }) => r.audit);
    assert.equal(audits.length, 3);
    assert.equal(sidecarAudits(files[1])[0].trajectorySha256, createHash('sha256').update(readFileSync(files[1])).digest('hex'));
    // The closed job's state files beside the trajectories are not taken for trajectories.
    assert.ok(existsSync(join(dir, '.trajaudit-batch', 'done')));
    const validate = await runCli(['validate', dir]);
    assert.equal(validate.code, 0, validate.out + validate.err);
  });

  it('a broken stage state file is one line naming the file and the JSON path, and nothing is submitted', async () => {
    const dir = tempDir('trajaudit-batch-cli-');
    writeCorpus(dir, 2);
    const args = ['audit', dir, '--method', 'searchauditor', '--batch', '--model', 'mock-gpt', '--base-url', server.openaiBaseUrl, '--detach'];
    assert.equal((await runCli(args)).code, 0);
    const [job] = readdirSync(join(dir, '.trajaudit-batch'));
    const statePath = join(dir, '.trajaudit-batch', job, 'stage-1-branches.json');
    const state = JSON.parse(readFileSync(statePath, 'utf8'));
    state.items[Object.keys(state.items)[0]].attempts = 'two';
    writeFileSync(statePath, JSON.stringify(state));
    const broken = await runCli(args);
    assert.equal(broken.code, 1);
    const last = broken.err.split('\n').at(-1)!;
    assert.match(last, /^trajaudit audit --batch: .*stage-1-branches\.json: items\.c[0-9a-f]{24}-holistic-a1\.attempts: .*rerun the same command to resume\)$/);
    assert.doesNotMatch(broken.err, /internal error|\n\s+at /);
    assert.equal(server.batchSubmissions.length, 1);
  });

  it('--method binary-search --batch: round by round, --detach and reruns, sidecars as the sync audit writes them, then reused', async () => {
    server.script(baselineScript);
    const dir = tempDir('trajaudit-batch-cli-');
    const files = writeCorpus(join(dir, 'corpus'), 6);
    const args = [
      'audit',
      join(dir, 'corpus'),
      '--method',
      'binary-search',
      '--batch',
      '--model',
      'mock-gpt',
      '--base-url',
      server.openaiBaseUrl,
      '--poll-seconds',
      '0',
    ];
    const detached = await runCli([...args, '--detach', '--json']);
    assert.equal(detached.code, 0, detached.err);
    const waiting = JSON.parse(detached.out);
    assert.deepEqual([waiting.status, waiting.round, waiting.phase], ['waiting', 1, 'submitted']);
    assert.match(waiting.message, /rerun the same command/);
    // The longest path of each case: halvings of 7 steps down the larger half, then the final judgment.
    assert.equal(waiting.estimate.requests, 6 * 3);
    assert.equal(server.batchSubmissions.length, 1);

    const done = await runCli([...args, '--json']);
    assert.equal(done.code, 0, done.err);
    const report = JSON.parse(done.out);
    assert.equal(report.status, 'complete');
    assert.equal(report.results.length, 6);
    assert.match(done.err, /round 2: submitted 6 request\(s\)/);
    const rounds = server.batchSubmissions.length;
    assert.ok(rounds >= 3, `rounds: ${rounds}`);
    assert.equal(report.usage.calls, server.batchItemRequests.length);
    // The synchronous audit's result cache holds the batch audit: an unchanged file is not sent again.
    const before = server.requests.length;
    const reused = await runCli(['audit', files[3], '--method', 'binary-search', '--model', 'mock-gpt', '--base-url', server.openaiBaseUrl]);
    assert.equal(reused.code, 0, reused.err);
    assert.equal(server.requests.length, before, 'no model call for a record the batch audited');
    assert.equal(sidecarAudits(files[3]).length, 1);
    const sync = await runCli(['audit', files[3], '--method', 'binary-search', '--model', 'mock-gpt', '--base-url', server.openaiBaseUrl, '--rerun', '--json']);
    assert.equal(sync.code, 0, sync.err);
    const [batched, synced] = sidecarAudits(files[3]);
    assert.equal(batched.method, 'binary-search');
    assert.equal(batched.promptVersion, synced.promptVersion);
    assert.deepEqual(comparable(batched), comparable(synced));
    assert.equal((await runCli(['validate', `${files[3]}.audit.json`])).code, 0);

    const again = await runCli([...args, '--json']);
    assert.equal(again.code, 0, again.err);
    assert.ok(JSON.parse(again.out).results.every((r: { cached: boolean }) => r.cached));
    assert.equal(server.batchSubmissions.length, rounds, 'an unchanged audited folder submits nothing');
  });

  it('refuses --detach without --batch, a folder without --batch, and --batch with the offline heuristic', async () => {
    const dir = tempDir('trajaudit-batch-cli-');
    const [file] = writeCorpus(dir, 1);
    const base = ['--model', 'mock-gpt', '--base-url', server.openaiBaseUrl];
    const detach = await runCli(['audit', file, '--method', 'searchauditor', '--detach', ...base]);
    assert.equal(detach.code, 2);
    assert.match(detach.err, /--detach applies to --batch only/);
    const folder = await runCli(['audit', dir, '--method', 'searchauditor', ...base]);
    assert.equal(folder.code, 2);
    assert.match(folder.err, /is a folder: audit a folder with --batch/);
    const method = await runCli(['audit', dir, '--method', 'heuristic', '--batch', ...base]);
    assert.equal(method.code, 2);
    assert.match(method.err, /--batch sends model requests; heuristic makes none \(use --method searchauditor, all-at-once, binary-search, step-by-step\)/);
    assert.equal(server.requests.length, 0);
  });
});
