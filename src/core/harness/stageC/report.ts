// The Stage-C Markdown report: acceptance summary, per-view pass rates, one table row per item,
// then every rejected item's findings and verifier reasons.
import { sumUsage, usageLine, type Pricing } from '../wire';
import type { PrecheckFinding } from './precheck';
import type { ViewName, ViewResult } from './views';

interface Line {
  id: string;
  passed: boolean;
  prechecks: PrecheckFinding[];
  views: Partial<Record<ViewName, ViewResult>>;
  usage?: { calls: number; inputTokens: number; outputTokens: number; cachedInputTokens: number };
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

export function renderStageCReport(lines: readonly Line[], meta: { verifiers: string[]; views: ViewName[]; aggregate: string; pricing?: Pricing }): string {
  const out: string[] = [];
  const accepted = lines.filter((l) => l.passed).length;
  out.push('# Stage-C filter report', '');
  out.push(
    `Seed 000, Stage C: an item is accepted only if it passes the deterministic pre-checks and every view run (${meta.views.join(', ') || 'pre-checks only'}).`,
  );
  out.push(
    `Verifier pool: ${meta.verifiers.length ? meta.verifiers.join(', ') : 'none (pre-checks only)'}; a view passes when ${meta.aggregate === 'all' ? 'every verifier passes it' : 'a majority of verifiers pass it'}.`,
    '',
  );
  out.push(`**Accepted: ${accepted} of ${lines.length}.**`, '');
  const precheckPass = lines.filter((l) => !l.prechecks.some((f) => f.severity === 'error')).length;
  out.push('| check | passed |', '| --- | --- |', `| pre-checks | ${precheckPass} / ${lines.length} |`);
  for (const v of meta.views) {
    const ran = lines.filter((l) => l.views[v]);
    out.push(`| ${v} | ${ran.filter((l) => l.views[v]?.passed).length} / ${ran.length} |`);
  }
  out.push('', `Usage: ${usageLine(sumUsage(lines.map((l) => l.usage)), meta.pricing)}.`, '');
  out.push(
    '## Items',
    '',
    `| item | pre-checks | ${meta.views.join(' | ')}${meta.views.length ? ' | ' : ''}accepted |`,
    `| --- | --- | ${meta.views.map(() => '---').join(' | ')}${meta.views.length ? ' | ' : ''}--- |`,
  );
  for (const l of lines) {
    const errors = l.prechecks.filter((f) => f.severity === 'error').length;
    const warnings = l.prechecks.length - errors;
    const pre = errors ? `✗ ${errors} error(s)${warnings ? `, ${warnings} warning(s)` : ''}` : warnings ? `✓ (${warnings} warning(s))` : '✓';
    const views = meta.views.map((v) => (l.views[v] ? (l.views[v]?.passed ? '✓' : '✗') : '—'));
    out.push(`| ${cell(l.id)} | ${pre} | ${views.join(' | ')}${views.length ? ' | ' : ''}${l.passed ? '**yes**' : 'no'} |`);
  }
  const details = lines.filter((l) => !l.passed || l.prechecks.length);
  if (details.length) out.push('', '## Findings');
  for (const l of details) {
    out.push('', `### ${l.id} — ${l.passed ? 'accepted' : 'rejected'}`, '');
    for (const f of l.prechecks) out.push(`- pre-check ${f.severity} \`${f.check}\` at \`${f.path.join('.')}\`: ${f.message}`);
    for (const v of meta.views) {
      const r = l.views[v];
      if (!r || (r.passed && !r.note)) continue;
      if (r.note) out.push(`- ${v}: ${r.note}`);
      for (const verdict of r.verdicts.filter((x) => !x.passed)) for (const reason of verdict.reasons) out.push(`- ${v} (${verdict.verifier}): ${reason}`);
    }
  }
  return `${out.join('\n')}\n`;
}
