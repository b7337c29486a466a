// `trajaudit harness stage-c <items> [--precheck-only] [--verifier P:MODEL[@BASE_URL] … | --verifiers FILE]
//                                    [--views C1,C2,C3,C4] [--aggregate all|majority] [--out DIR] [--report FILE] [--json]`
import { readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { InputError } from '../../core/input/inputError';
import { loadItemsList } from '../../core/harness/delegation/run';
import { delegationPrompts } from '../../core/harness/prompts';
import { precheckPassed } from '../../core/harness/stageC/precheck';
import { precheckPath } from '../../core/harness/stageC/precheckFile';
import { renderStageCReport } from '../../core/harness/stageC/report';
import { runStageC } from '../../core/harness/stageC/run';
import { VIEWS, type Aggregate, type Verifier, type ViewName } from '../../core/harness/stageC/views';
import { createModelClient } from '../../core/providers/factory';
import type { ModelSettings, ProviderName } from '../../core/providers/types';
import { CliUsageError, type CliIo } from '../io';
import { HARNESS_RUN_OPTIONS, PRICE_OPTION, PROVIDER_OPTIONS, concurrencyOption, type CliCommand } from '../options';
import { modelSettingsFrom } from './auditWithModel';
import { defaultOut, intFlag, pricingFlag, progressPrinter, reportSummary, withInterrupt } from './harnessCommon';

const verifierFileSchema = z.object({
  verifiers: z
    .array(
      z.object({
        provider: z.enum(['openai', 'anthropic']),
        model: z.string().min(1),
        baseUrl: z.string().optional(),
        apiKeyEnv: z.string().optional(),
        label: z.string().optional(),
      }),
    )
    .min(1),
  aggregate: z.enum(['all', 'majority']).optional(),
});

function verifierFrom(
  spec: { provider: ProviderName; model: string; baseUrl?: string; apiKeyEnv?: string; label?: string },
  values: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
): Verifier {
  const keyVar = spec.apiKeyEnv ?? (spec.provider === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY');
  const baseUrl = spec.baseUrl ?? (values['base-url'] as string | undefined) ?? env.TRAJAUDIT_BASE_URL;
  const apiKey = env[keyVar];
  if (!apiKey && !baseUrl) throw new CliUsageError(`verifier ${spec.provider}:${spec.model}: set ${keyVar}, or give a base URL`);
  const settings: ModelSettings = { provider: spec.provider, model: spec.model };
  if (baseUrl) settings.baseUrl = baseUrl;
  if (apiKey) settings.apiKey = apiKey;
  if (values['max-output-tokens'] !== undefined) settings.maxOutputTokens = intFlag(values, 'max-output-tokens', 8000, 1);
  return { label: spec.label ?? `${spec.provider}:${spec.model}`, client: createModelClient(settings) };
}

/** The verifier pool: --verifiers FILE, else repeated --verifier P:MODEL[@URL], else --provider/--model. */
export function verifierPool(values: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): { verifiers: Verifier[]; aggregate?: Aggregate } {
  if (typeof values.verifiers === 'string') {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(values.verifiers, 'utf8'));
    } catch (error) {
      throw new InputError(values.verifiers, `cannot read the verifier pool (${(error as Error).message.split('\n')[0]})`);
    }
    const parsed = verifierFileSchema.safeParse(raw);
    if (!parsed.success)
      throw new InputError(
        values.verifiers,
        `expected {"verifiers": [{"provider": "openai"|"anthropic", "model": "…", "baseUrl"?, "apiKeyEnv"?, "label"?}], "aggregate"?: "all"|"majority"}: ${z.prettifyError(parsed.error).split('\n').join(' ')}`,
      );
    return { verifiers: parsed.data.verifiers.map((v) => verifierFrom(v, values, env)), aggregate: parsed.data.aggregate };
  }
  const flags = (values.verifier as string[] | undefined) ?? [];
  if (flags.length) {
    return {
      verifiers: flags.map((f) => {
        const m = /^(openai|anthropic):([^@]+?)(?:@(.+))?$/.exec(f.trim());
        if (!m) throw new CliUsageError(`--verifier expects PROVIDER:MODEL or PROVIDER:MODEL@BASE_URL (provider openai or anthropic), got "${f}"`);
        return verifierFrom({ provider: m[1] as ProviderName, model: m[2], baseUrl: m[3] }, values, env);
      }),
    };
  }
  if (values.model !== undefined || env.TRAJAUDIT_MODEL) {
    const settings = modelSettingsFrom(values, env);
    return { verifiers: [{ label: `${settings.provider}:${settings.model}`, client: createModelClient(settings) }] };
  }
  throw new CliUsageError('harness stage-c needs verifiers: --verifier P:MODEL (repeatable), --verifiers FILE, or --provider/--model; or run --precheck-only');
}

function viewsFrom(values: Record<string, unknown>): ViewName[] {
  if (values.views === undefined) return [...VIEWS];
  const list = String(values.views)
    .split(',')
    .map((v) => v.trim().toUpperCase())
    .filter(Boolean);
  for (const v of list) if (!(VIEWS as readonly string[]).includes(v)) throw new CliUsageError(`--views takes ${VIEWS.join(',')}, got "${v}"`);
  return [...new Set(list)] as ViewName[];
}

function prechecksOnly(itemsPath: string, values: Record<string, unknown>, io: CliIo): number {
  // The loader first: a broken file gets its own message (line:column, what was expected), not "no items".
  const items = loadItemsList(itemsPath);
  const results = precheckPath(itemsPath);
  if (results.length === 0) throw new InputError(itemsPath, 'no Delegation items found');
  const byItem = new Map<string, { file: string; findings: (typeof results)[number]['findings'] }>();
  for (const r of results) for (const f of r.findings) byItem.set(f.itemId, { file: r.file, findings: [...(byItem.get(f.itemId)?.findings ?? []), f] });
  const lines = items.map((item) => {
    const findings = byItem.get(String(item.id))?.findings ?? [];
    return { id: String(item.id), passed: precheckPassed(findings), prechecks: findings, views: {} };
  });
  if (typeof values.report === 'string') writeFileSync(values.report, renderStageCReport(lines, { verifiers: [], views: [], aggregate: 'all' }));
  if (values.json) {
    io.out(
      JSON.stringify(
        results.map((r) => ({ file: r.file, items: r.items, findings: r.findings })),
        null,
        2,
      ),
    );
  } else {
    for (const r of results) {
      for (const f of r.findings)
        io.out(`${r.file}:${f.range?.start.line ?? 1}:${f.range?.start.column ?? 1}: ${f.severity} [${f.check}] item ${f.itemId}: ${f.message}`);
    }
    const failed = lines.filter((l) => !l.passed).length;
    io.err(`trajaudit harness stage-c: pre-checks: ${lines.length - failed} of ${lines.length} item(s) pass, ${failed} rejected`);
  }
  return lines.every((l) => l.passed) ? 0 : 1;
}

export async function runHarnessStageC(positionals: string[], values: Record<string, unknown>, io: CliIo): Promise<number> {
  if (positionals.length !== 1)
    throw new CliUsageError(positionals.length ? 'harness stage-c expects exactly one items file or folder' : 'harness stage-c: missing <items>');
  const itemsPath = positionals[0];
  if (values['precheck-only']) return prechecksOnly(itemsPath, values, io);
  const { verifiers, aggregate: fromFile } = verifierPool(values);
  const aggregate = (values.aggregate ?? fromFile ?? 'all') as Aggregate;
  if (aggregate !== 'all' && aggregate !== 'majority') throw new CliUsageError('--aggregate must be all or majority');
  const items = loadItemsList(itemsPath);
  const limit = values.limit === undefined ? undefined : intFlag(values, 'limit', 0, 1);
  const out = typeof values.out === 'string' ? values.out : defaultOut('stage-c', itemsPath);
  const pricing = pricingFlag(values);
  const summary = await withInterrupt(io, (signal) =>
    runStageC({
      items: limit ? items.slice(0, limit) : items,
      itemsPath,
      out,
      verifiers,
      views: viewsFrom(values),
      aggregate,
      concurrency: intFlag(values, 'concurrency', 4, 1),
      documentTemplate: delegationPrompts().document,
      signal,
      onProgress: progressPrinter(io, 'stage-c'),
      pricing,
    }),
  );
  if (typeof values.report === 'string') writeFileSync(values.report, readFileSync(summary.reportPath, 'utf8'));
  return reportSummary(io, 'stage-c', summary, values, pricing, { accepted: `${summary.accepted} of ${summary.total}`, report: summary.reportPath });
}

export const harnessStageCCommand: CliCommand = {
  name: 'harness stage-c',
  args: '<items>',
  summary: 'Stage-C filters over Delegation items: deterministic pre-checks, then the verifier views; resumable.',
  options: {
    'precheck-only': { type: 'boolean', help: 'only the deterministic pre-checks (no model); exit 1 when an item is rejected' },
    verifier: { type: 'string', multiple: true, value: 'P:MODEL[@URL]', help: 'a verifier model (provider openai or anthropic)' },
    verifiers: { type: 'string', value: 'FILE', help: 'the verifier pool as JSON {verifiers: [{provider, model, baseUrl?, apiKeyEnv?, label?}], aggregate?}' },
    views: { type: 'string', value: VIEWS.join(','), help: 'the verifier views to run (default all)' },
    aggregate: { type: 'string', value: 'all|majority', help: 'verifiers that must accept an item (default all)' },
    report: { type: 'string', value: 'FILE', help: 'also write the Markdown report here' },
    ...PROVIDER_OPTIONS,
    ...PRICE_OPTION,
    ...concurrencyOption('items', 4),
    ...HARNESS_RUN_OPTIONS,
  },
  run: runHarnessStageC,
};
