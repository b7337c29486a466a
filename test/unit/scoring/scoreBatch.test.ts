// `trajaudit score <folder> --batch [--detach]` (issue 17 item 1): the model judges' requests go
// through the providers' batch APIs (the real SDKs against the mock), with the same validation,
// re-asks and judgment cache as a synchronous score, resumable without resubmitting.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createBatchProvider } from '../../../src/core/providers/batch';
import { createModelClient } from '../../../src/core/providers/factory';
import type { ModelSettings } from '../../../src/core/providers/types';
import { SCORE_BATCH_DIR, scoreRunFolderBatch } from '../../../src/core/scoring/scoreRunFolder';
import { startMockModelServer, type MockModelServer, type MockReply, type MockRequest } from '../../mock/mockModelServer';
import { runCli, tempDir } from '../helpers';

const jsonl = (rows: unknown[]) => rows.map((r) => `${JSON.stringify(r)}\n`).join('');

/** A nuggets run: item i has i % 3 + 1 nuggets; answers mention "fact i.k" for the nuggets they cover. */
function nuggetsRun(items: number): string {
  const dir = tempDir();
  const gold = [];
  const answers = [];
  for (let i = 1; i <= items; i++) {
    const n = (i % 3) + 1;
    gold.push({ id: `i${i}`, fused_query: `question ${i}`, nuggets: Array.from({ length: n }, (_, k) => ({ text: `fact ${i}.${k + 1}`, weight: k + 1 })) });
    answers.push({ id: `i${i}`, condition: 'orig', answer: Array.from({ length: n }, (_, k) => (k % 2 === 0 ? `fact ${i}.${k + 1}` : 'nothing')).join('; ') });
  }
  writeFileSync(join(dir, 'gold_nuggets.jsonl'), jsonl(gold));
  writeFileSync(join(dir, 'answers.jsonl'), jsonl(answers));
  return dir;
}

/**
 * The scripted judge: reads the nuggets and the answer off the prompt and labels each nugget full
 * when the answer names it, else none. `malformedFor` answers the first ask of that question with
 * one coverage entry too few (the judge's own check rejects it and re-asks).
 */
function scriptedJudge(malformedFor?: string) {
  return (request: MockRequest): MockReply => {
    const nuggets = [...request.userText.matchAll(/^\d+\. (fact \d+\.\d+) \(weight/gm)].map((m) => m[1]);
    // "fact 1.1" is not covered by "fact 1.12": the answer's parts are compared whole.
    const answer = /<answer>\n([\s\S]*?)\n<\/answer>/.exec(request.userText)?.[1] ?? '';
    let coverage = nuggets.map((text, k) => ({ nugget: k + 1, label: answer.split('; ').includes(text) ? 'full' : 'none' }));
    const reasked = request.userText.includes('Your previous output was rejected');
    if (malformedFor && request.userText.includes(malformedFor) && !reasked) coverage = coverage.slice(1);
    return { text: JSON.stringify({ coverage }), usage: { inputTokens: 100, outputTokens: 10 } };
  };
}

function judgments(dir: string): string[] {
  return readFileSync(join(dir, 'judgments.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => {
      const v = JSON.parse(l) as { id: string; coverage: string[]; judge_identity: unknown; input_sha256: string };
      return JSON.stringify([v.id, v.coverage, v.judge_identity, v.input_sha256]);
    })
    .sort();
}

describe('trajaudit score --batch (model judges through the batch APIs)', function () {
  this.timeout(120_000);
  let server: MockModelServer;
  before(async () => {
    server = await startMockModelServer();
  });
  after(async () => server.close());

  const modelArgs = (model = 'judge-a') => ['--model', model, '--base-url', server.openaiBaseUrl];
  const chatCalls = () => server.requests.filter((r) => r.protocol !== 'other').length;

  it('gives the same verdicts as a synchronous score for the same scripted replies, a re-ask in a second submission', async () => {
    const syncDir = nuggetsRun(12);
    const batchDir = nuggetsRun(12);
    server.reset().script(scriptedJudge('question 5'));
    const sync = await runCli(['score', syncDir, '--json', ...modelArgs()]);
    assert.equal(sync.code, 0, sync.err);
    assert.equal(chatCalls(), 13, '12 verdicts and one re-ask');
    const syncBodies = server.requests
      .filter((r) => r.protocol !== 'other')
      .map((r) => JSON.stringify(r.body))
      .sort();

    server.reset().script(scriptedJudge('question 5'));
    const batch = await runCli(['score', batchDir, '--batch', '--poll-seconds', '0', '--json', '--price', '2,0.5,8', ...modelArgs()]);
    assert.equal(batch.code, 0, batch.err);
    assert.equal(chatCalls(), 0, 'no synchronous call');
    assert.deepEqual(
      server.batchSubmissions.map((b) => b.customIds.length),
      [12, 1],
      'every verdict in one submission, the re-ask in the next',
    );
    assert.deepEqual(server.batchItemRequests.map((r) => JSON.stringify(r.body)).sort(), syncBodies, 'byte-for-byte the requests a synchronous score sends');

    const syncJson = JSON.parse(sync.out) as Record<string, unknown>;
    const { batch: info, ...batchJson } = JSON.parse(batch.out) as Record<string, unknown> & {
      batch: {
        status: string;
        submitted: string[];
        estimate: { requests: number; cost_usd: number; input_tokens: number };
        usage: Record<string, number>;
        cost_usd: number;
      };
    };
    assert.deepEqual(batchJson, syncJson, 'the same score');
    assert.deepEqual(judgments(batchDir), judgments(syncDir), 'the same cached verdicts, same judge identity and input hashes');
    const labels = judgments(batchDir).join('\n');
    assert.ok(labels.includes('"full"') && labels.includes('"none"'), 'the script gives both labels');

    assert.equal(info.status, 'complete');
    assert.equal(info.submitted.length, 2);
    assert.equal(info.estimate.requests, 12);
    assert.ok(info.estimate.input_tokens > 12 * 50, `estimated input tokens ${info.estimate.input_tokens}`);
    // Real usage: 13 replies of 100 input and 10 output tokens; at half of 2 / 8 USD per million.
    assert.deepEqual(info.usage, { calls: 13, input_tokens: 1300, cached_input_tokens: 0, output_tokens: 130 });
    assert.ok(Math.abs(info.cost_usd - (1300 * 1 + 130 * 4) / 1e6) < 1e-12, String(info.cost_usd));
    assert.match(batch.err, /estimate: 12 request\(s\)/);

    // The job is closed: its state file moved under done/.
    const jobs = join(batchDir, SCORE_BATCH_DIR);
    assert.deepEqual(
      readdirSync(jobs).filter((f) => f.endsWith('.json')),
      [],
    );
    assert.equal(readdirSync(join(jobs, 'done')).length, 1);
  });

  it('cached verdicts are not resubmitted: a rerun submits nothing, a new answer alone is submitted', async () => {
    const dir = nuggetsRun(6);
    server.reset().script(scriptedJudge());
    const args = ['score', dir, '--batch', '--poll-seconds', '0', '--json', ...modelArgs()];
    assert.equal((await runCli(args)).code, 0);
    assert.equal(server.batchSubmissions.length, 1);
    const again = await runCli(args);
    assert.equal(again.code, 0, again.err);
    assert.equal(server.batchSubmissions.length, 1, 'every verdict was cached');
    const info = (JSON.parse(again.out) as { batch: { estimate: unknown; submitted: string[] } }).batch;
    assert.equal(info.estimate, null);
    assert.deepEqual(info.submitted, []);

    writeFileSync(
      join(dir, 'answers.jsonl'),
      `${readFileSync(join(dir, 'answers.jsonl'), 'utf8')}${jsonl([{ id: 'i2', condition: 'retry', answer: 'fact 2.1' }])}`,
    );
    assert.equal((await runCli(args)).code, 0);
    assert.equal(server.batchSubmissions.length, 2);
    assert.equal(server.batchSubmissions[1].customIds.length, 1);
  });

  it('a second judge model in batch mode is asked for every item, and --json compares the two judges', async () => {
    const dir = nuggetsRun(6);
    server.reset().script(scriptedJudge());
    assert.equal((await runCli(['score', dir, '--batch', '--poll-seconds', '0', ...modelArgs('judge-a')])).code, 0);
    const second = await runCli(['score', dir, '--batch', '--poll-seconds', '0', '--json', ...modelArgs('judge-b')]);
    assert.equal(second.code, 0, second.err);
    assert.deepEqual(
      server.batchSubmissions.map((b) => b.customIds.length),
      [6, 6],
    );
    const rows = (JSON.parse(second.out) as { judge_agreement: { judge_a: string; judge_b: string; agreement: number }[] }).judge_agreement;
    assert.deepEqual(
      rows.map((r) => [r.judge_a, r.judge_b, r.agreement]),
      [['openai:judge-a:nugget-coverage/v1', 'openai:judge-b:nugget-coverage/v1', 1]],
      'the same script for both: full agreement',
    );
  });

  it('--detach submits and exits; a rerun collects without resubmitting and the next rerun submits the re-ask', async () => {
    const dir = nuggetsRun(8);
    server.reset().script(scriptedJudge('question 3')).batchOutcome({ pollsUntilDone: 1 });
    const args = ['score', dir, '--batch', '--detach', '--json', ...modelArgs()];
    const first = await runCli(args);
    assert.equal(first.code, 0, first.err);
    const waiting = JSON.parse(first.out) as {
      status: string;
      phase: string;
      requests: number;
      batch_ids: string[];
      batch: { estimate: { requests: number } };
    };
    assert.equal(waiting.status, 'waiting');
    assert.equal(waiting.phase, 'submitted');
    assert.equal(waiting.requests, 8);
    assert.equal(waiting.batch.estimate.requests, 8);
    assert.equal(existsSync(join(dir, 'judgments.jsonl')), false, 'no verdict yet');

    const running = JSON.parse((await runCli(args)).out) as { phase: string; batch: { estimate: unknown } };
    assert.equal(running.phase, 'in_progress', 'the mock batch needs one more poll');
    assert.equal(running.batch.estimate, null, 'nothing new to submit, nothing to estimate');
    const reask = JSON.parse((await runCli(args)).out) as { phase: string; requests: number };
    assert.deepEqual([reask.phase, reask.requests], ['submitted', 1], 'collected, and the re-ask submitted');
    assert.equal(server.batchSubmissions.length, 2);
    assert.equal(readFileSync(join(dir, 'judgments.jsonl'), 'utf8').trim().split('\n').length, 7, 'seven verdicts cached on the way');

    const done = await runCli(args);
    assert.equal(done.code, 0, done.err);
    const json = JSON.parse(done.out) as { conditions: { orig: { n: number } }; batch: { status: string } };
    assert.equal(json.batch.status, 'complete');
    assert.equal(json.conditions.orig.n, 8);
    assert.equal(server.batchSubmissions.length, 2, 'nothing submitted twice');
    assert.equal(chatCalls(), 0);
  });

  it('a run killed after its submission resumes polling the same batch (Anthropic)', async () => {
    const dir = nuggetsRun(5);
    server.reset().script(scriptedJudge()).batchOutcome({ pollsUntilDone: 2 });
    const settings: ModelSettings = { provider: 'anthropic', model: 'judge-c', baseUrl: server.anthropicBaseUrl, apiKey: 'test-key' };
    const batchOptions = () => ({ client: createModelClient(settings), provider: createBatchProvider(settings), pollIntervalMs: 0 });
    const controller = new AbortController();
    await assert.rejects(
      scoreRunFolderBatch(dir, { signal: controller.signal }, { ...batchOptions(), onSubmitted: () => controller.abort() }),
      (error: Error) => error.name === 'AbortError',
    );
    assert.equal(server.batchSubmissions.length, 1);
    const outcome = await scoreRunFolderBatch(dir, {}, batchOptions());
    assert.equal(outcome.status, 'complete');
    assert.equal(server.batchSubmissions.length, 1, 'the rerun polled the submitted batch');
    assert.deepEqual(outcome.batch.submitted, []);
    assert.equal(outcome.batch.estimate, undefined, 'the submitted requests are not estimated (paid) again');
    assert.equal(outcome.status === 'complete' && outcome.result.judging.modelCalls, 5);
    const lines = readFileSync(join(dir, 'judgments.jsonl'), 'utf8').trim().split('\n');
    assert.deepEqual((JSON.parse(lines[0]) as { judge_identity: unknown }).judge_identity, {
      provider: 'anthropic',
      model: 'judge-c',
      prompt: 'nugget-coverage/v1',
    });
  });

  it('an item the batch gives up on is a failed verdict, left out of the score and judged again next time', async () => {
    const dir = nuggetsRun(3);
    server.reset().script(scriptedJudge());
    // The third item expires in every submission (three, BatchJob's attempt limit).
    server.batchOutcome({ end: 'expired', answeredBeforeExpiry: 2 }, { end: 'expired', answeredBeforeExpiry: 0 }, { end: 'expired', answeredBeforeExpiry: 0 });
    const r = await runCli(['score', dir, '--batch', '--poll-seconds', '0', '--json', ...modelArgs()]);
    assert.equal(r.code, 0, r.err);
    const expired = server.batchSubmissions[0].customIds[2];
    assert.deepEqual(
      server.batchSubmissions.map((b) => b.customIds),
      [server.batchSubmissions[0].customIds, [expired], [expired]],
      'the expired item resubmitted up to the attempt limit',
    );
    assert.match(r.err, /1 judgment\(s\) failed .*batch item expired/);
    assert.equal((JSON.parse(r.out) as { conditions: { orig: { n: number } } }).conditions.orig.n, 2);
    const again = await runCli(['score', dir, '--batch', '--poll-seconds', '0', '--json', ...modelArgs()]);
    assert.equal(again.code, 0, again.err);
    assert.equal(server.batchSubmissions.length, 4, 'the failed verdict is asked afresh');
    assert.equal((JSON.parse(again.out) as { conditions: { orig: { n: number } } }).conditions.orig.n, 3);
  });

  it('a batch state file that does not parse is a one-line error naming it; nothing is submitted', async () => {
    const dir = nuggetsRun(2);
    server.reset().script(scriptedJudge());
    const args = ['score', dir, '--batch', '--detach', ...modelArgs()];
    assert.equal((await runCli(args)).code, 0);
    const [state] = readdirSync(join(dir, SCORE_BATCH_DIR)).filter((f) => f.endsWith('.json'));
    writeFileSync(join(dir, SCORE_BATCH_DIR, state), '{"version": 1, "items"');
    const r = await runCli(args);
    assert.equal(r.code, 1);
    const errorLines = r.err.split('\n').filter((l) => !l.includes('estimate:'));
    assert.equal(errorLines.length, 1, r.err);
    assert.ok(errorLines[0].includes(join(dir, SCORE_BATCH_DIR, state)), r.err);
    assert.match(errorLines[0], /^trajaudit score --batch: .*not a readable JSON batch state file .*rerun the same command to resume\)$/);
    assert.doesNotMatch(r.err, /internal error/);
    assert.equal(server.batchSubmissions.length, 1);
  });

  it('refuses batch flags without --batch, --batch without a model, and unknown flags (exit 2)', async () => {
    const dir = nuggetsRun(1);
    const detach = await runCli(['score', dir, '--detach', ...modelArgs()]);
    assert.equal(detach.code, 2);
    assert.match(detach.err, /--detach applies to --batch only/);
    const noModel = await runCli(['score', dir, '--batch']);
    assert.equal(noModel.code, 2);
    assert.match(noModel.err, /--batch .*needs --model/);
    const unknown = await runCli(['score', dir, '--batch', '--detached', ...modelArgs()]);
    assert.equal(unknown.code, 2);
    const poll = await runCli(['score', dir, '--batch', '--poll-seconds', 'soon', ...modelArgs()]);
    assert.equal(poll.code, 2);
    assert.match(poll.err, /--poll-seconds expects a number of seconds ≥ 0, got "soon"/);
  });
});
