// Delegation settings I and II end to end: dry run shape, runs against the mock model server (both
// providers), the run folder scored by `trajaudit score`, conversations loadable as trajectories.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadFile } from '../../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../../src/core/load/loadRecord';
import { parseCitations } from '../../../src/core/harness/delegation/conversation';
import { itemPool } from '../../../src/core/harness/delegation/docs';
import { loadItemsList } from '../../../src/core/harness/delegation/run';
import { delegationPrompts } from '../../../src/core/harness/prompts';
import { startMockModelServer, type MockModelServer } from '../../mock/mockModelServer';
import { runCli, tempDir } from '../helpers';
import { DELEGATION_ITEMS, delegationModel } from './helpers';

const readLines = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('trajaudit harness delegation', () => {
  let server: MockModelServer;
  const env = { ...process.env };
  beforeEach(async () => {
    server = await startMockModelServer();
    delete process.env.OPENAI_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
  });
  afterEach(async () => {
    await server.close();
    process.env = { ...env };
  });

  it('--dry-run --json prints [{id, setting, order, messages, tools}] and calls no model', async () => {
    const full = await runCli(['harness', 'delegation', DELEGATION_ITEMS, '--setting', 'full', '--dry-run', '--json']);
    assert.equal(full.code, 0, full.err);
    const entries = JSON.parse(full.out) as Record<string, unknown>[];
    assert.equal(entries.length, 3 * 3, 'three items × three orders');
    for (const e of entries) {
      assert.deepEqual(Object.keys(e), ['id', 'setting', 'order', 'messages']);
      assert.equal(e.setting, 'full');
      assert.ok(['golden_first', 'golden_middle', 'golden_last'].includes(e.order as string));
      assert.equal((e.messages as unknown[]).length, 2);
    }
    const one = await runCli(['harness', 'delegation', DELEGATION_ITEMS, '--setting', 'full', '--order', 'golden_last', '--dry-run', '--json']);
    assert.equal(JSON.parse(one.out).length, 3);
    const search = await runCli(['harness', 'delegation', DELEGATION_ITEMS, '--setting', 'search', '--dry-run', '--json', '--withhold', '2', '--seed', '3']);
    const s = JSON.parse(search.out) as Record<string, unknown>[];
    assert.equal(s.length, 3);
    for (const e of s) {
      assert.deepEqual(Object.keys(e), ['id', 'setting', 'order', 'messages', 'tools']);
      assert.equal(e.order, null);
      assert.deepEqual(e.tools, [delegationPrompts().searchTool]);
      assert.equal((e.messages as unknown[]).length, 4);
    }
    assert.equal(server.requests.length, 0);
    const bad = await runCli(['harness', 'delegation', DELEGATION_ITEMS, '--setting', 'both', '--dry-run']);
    assert.equal(bad.code, 2);
  });

  it('setting I against the mock: one output per item × order, cited ids mapped, scored by trajaudit score', async () => {
    server.script(delegationModel());
    const out = join(tempDir(), 'run');
    const r = await runCli([
      'harness',
      'delegation',
      DELEGATION_ITEMS,
      '--setting',
      'full',
      '--provider',
      'openai',
      '--model',
      'mock-eval',
      '--base-url',
      server.openaiBaseUrl,
      '--out',
      out,
      '--json',
      '--price',
      '1,0.1,2',
    ]);
    assert.equal(r.code, 0, r.err);
    const summary = JSON.parse(r.out);
    assert.equal(summary.completed, 9);
    assert.equal(summary.run_usage.calls, 9);
    assert.equal(summary.run_usage.inputTokens, 9000);
    assert.ok(summary.run_cost_usd > 0);
    assert.match(r.err, /\[9\/9\]/, 'progress lines on stderr');
    const lines = readLines(join(out, 'outputs.jsonl'));
    assert.equal(lines.length, 9);
    const items = loadItemsList(DELEGATION_ITEMS);
    for (const line of lines) {
      const item = items.find((i) => i.id === line.id)!;
      const ids = itemPool(item).map((d) => d.original);
      assert.equal(line.cited_doc_ids.length, 2);
      for (const c of line.cited_doc_ids) assert.ok(ids.includes(c));
      assert.deepEqual(line.unknown_citations, ['zz9']);
      assert.ok(line.order);
      const loaded = loadFile(join(out, line.trajectory));
      assert.equal(loaded.detection.kind, 'openai-chat');
      const record = loaded.records[0];
      assert.ok(isTrajectoryRecord(record));
      assert.equal(record.trajectory.query, item.query);
      assert.equal(record.trajectory.predictedAnswer, line.answer);
      assert.equal(record.trajectory.messages.length, 3);
    }
    const manifest = JSON.parse(readFileSync(join(out, 'trajaudit.run.json'), 'utf8'));
    assert.equal(manifest.kind, 'delegation');
    assert.equal(manifest.outputs, 'outputs.jsonl');
    const score = await runCli(['score', out, '--json']);
    assert.equal(score.code, 0, score.err);
    const json = JSON.parse(score.out);
    assert.equal(json.kind, 'delegation');
    assert.equal(json.n, 9);
    assert.doesNotMatch(score.err, /none of their item's documents/, 'every cited id maps to an item document');
  });

  for (const provider of ['openai', 'anthropic'] as const) {
    it(`setting II (${provider}): searches over the closed pool, rs ids mapped back, withheld ids recorded, scored`, async () => {
      server.script(delegationModel(1));
      const out = join(tempDir(), 'run');
      const base = provider === 'openai' ? server.openaiBaseUrl : server.anthropicBaseUrl;
      const r = await runCli([
        'harness',
        'delegation',
        DELEGATION_ITEMS,
        '--setting',
        'search',
        '--provider',
        provider,
        '--model',
        'mock-eval',
        '--base-url',
        base,
        '--out',
        out,
        '--k',
        '2',
        '--budget',
        '3',
        '--json',
      ]);
      assert.equal(r.code, 0, r.err);
      const lines = readLines(join(out, 'outputs.jsonl'));
      assert.equal(lines.length, 3);
      for (const line of lines) {
        assert.equal(line.setting, 'search');
        assert.equal(line.order, undefined);
        assert.deepEqual(line.searches, ['1 fund return 2023']);
        assert.equal(line.withheld_doc_ids.length, 1);
        assert.equal(line.finish, 'answer');
        assert.ok(line.cited_doc_ids.length >= 4);
        assert.ok(!line.cited_doc_ids.some((c: string) => /^rs\d/.test(c)), 'run-local ids are mapped back');
        const t = JSON.parse(readFileSync(join(out, line.trajectory), 'utf8'));
        assert.deepEqual(
          t.messages.map((m: { role: string }) => m.role),
          ['system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'assistant'],
        );
        const loaded = loadFile(join(out, line.trajectory));
        assert.equal(loaded.detection.kind, 'openai-chat');
      }
      // Each request of a conversation lists the tool with tool_choice auto.
      for (const req of server.requests) {
        assert.equal(req.body.tools.length, 1);
        assert.ok(req.body.tool_choice === 'auto' || req.body.tool_choice?.type === 'auto');
      }
      const score = await runCli(['score', out, '--json']);
      assert.equal(score.code, 0, score.err);
      const json = JSON.parse(score.out);
      assert.doesNotMatch(score.err, /none of their item's documents/);
      assert.notEqual(json.metrics.withheld_recovery, null, 'withheld recovery is computed');
    });
  }

  it('setting II at the budget: tools disabled and the neutral final message, verbatim', async () => {
    server.script(delegationModel(99));
    const out = join(tempDir(), 'run');
    const r = await runCli([
      'harness',
      'delegation',
      join(DELEGATION_ITEMS, 'deleg-en-0231-oil-fund-equity-gap.json'),
      '--setting',
      'search',
      '--model',
      'mock-eval',
      '--base-url',
      server.openaiBaseUrl,
      '--out',
      out,
      '--budget',
      '2',
    ]);
    assert.equal(r.code, 0, r.err);
    const [line] = readLines(join(out, 'outputs.jsonl'));
    assert.equal(line.finish, 'budget');
    assert.equal(line.searches.length, 2);
    assert.equal(server.requests.length, 3);
    const last = server.requests[2].body;
    assert.equal(last.tool_choice, 'none');
    assert.deepEqual(last.messages.at(-1), {
      role: 'user',
      content: 'Please give your final answer now based on the information you have.\nRemember to cite the doc_ids you used in square brackets (e.g. [web1]).',
    });
    assert.match(line.answer, /at the budget/);
  });

  it('citations: [rs1][rs2], [rs1, rs3], 【rs4】, any case; unknown ids kept apart', () => {
    const pool = itemPool(loadItemsList(DELEGATION_ITEMS)[0]);
    const ids = new Map([
      ['rs1', pool[0].original],
      ['rs2', pool[1].original],
      ['rs3', pool[2].original],
      ['rs4', pool[3].original],
    ]);
    const c = parseCitations('A [rs1][RS2]. B [rs1, rs3]. C 【rs4】 D [web9] [see note]', ids, pool, [pool[0].original]);
    assert.deepEqual(c.cited, [pool[0].original, pool[1].original, pool[2].original, pool[3].original]);
    assert.deepEqual(c.unknown, ['web9']);
    assert.deepEqual(c.groups.withheld, [pool[0].original]);
    assert.equal(c.groups.golden.length + c.groups.distractor.length + c.groups.irrelevant.length, 4);
  });

  it('a folder of trajectories only: nothing else is written', async () => {
    server.script(delegationModel());
    const out = join(tempDir(), 'run');
    await runCli([
      'harness',
      'delegation',
      DELEGATION_ITEMS,
      '--setting',
      'full',
      '--order',
      'golden_first',
      '--model',
      'm',
      '--base-url',
      server.openaiBaseUrl,
      '--out',
      out,
    ]);
    assert.deepEqual(readdirSync(out).sort(), ['outputs.jsonl', 'trajaudit.run.json', 'trajectories']);
  });
});
