import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { BatchCostEstimate } from '../../../../src/core/audit/batch/estimate';
import { estimateFolderBatch, prepareFolderBatch, runFolderBatch } from '../../../../src/core/audit/batch/folderBatch';
import { createModelClient } from '../../../../src/core/providers/factory';
import type { ModelSettings } from '../../../../src/core/providers/types';
import { startMockModelServer, type MockModelServer } from '../../../mock/mockModelServer';
import { tempDir } from '../../helpers';
import { searchAuditorScript } from '../fixtures';
import { writeCorpus } from './corpus';

describe('estimateFolderBatch: the batch estimate before anything is sent (issue 17, extension confirmation)', function () {
  this.timeout(60000);
  let server: MockModelServer;
  beforeEach(async () => {
    server = await startMockModelServer({ script: searchAuditorScript({}, 0) });
  });
  afterEach(async () => server.close());

  it('sends nothing and equals the estimate the run reports before its first submission', async () => {
    const dir = join(tempDir('trajaudit-batch-estimate-'), 'corpus');
    writeCorpus(dir, 4);
    const settings: ModelSettings = { provider: 'openai', model: 'mock-gpt', baseUrl: server.openaiBaseUrl, maxOutputTokens: 2000 };
    const options = {
      client: createModelClient(settings),
      variant: 'full' as const,
      adjudicatorSeesTrajectory: true,
      contextLimit: 128_000,
      maxOutputTokens: 2000,
    };
    const prepared = prepareFolderBatch({ target: dir, isFolder: true, settings, options, keyOptions: { variant: 'full', adjudicatorSeesTrajectory: true } });
    const pricing = { input: 2, cachedInput: 0.5, output: 8 };

    const before = estimateFolderBatch(prepared, pricing);
    assert.equal(server.requests.length, 0, 'the estimate calls nothing');
    assert.equal(server.batchSubmissions.length, 0);
    assert.equal(before.requests, 4 * 5);
    assert.equal(before.outputTokensMax, 4 * 5 * 2000);
    assert.deepEqual(before.batchPricing, { input: 1, cachedInput: 0.25, output: 4 });
    assert.ok(Math.abs(before.costUsd! - (before.inputTokens * 1 + before.outputTokens * 4) / 1e6) < 1e-12);
    assert.equal(estimateFolderBatch(prepared, undefined).costUsd, null, 'no prices, no cost');

    let reported: BatchCostEstimate | undefined;
    const outcome = await runFolderBatch(prepared, { detach: true, pricing, onEstimate: (e) => (reported = e) });
    assert.equal(outcome.status, 'waiting');
    assert.deepEqual(before, reported);
  });
});
