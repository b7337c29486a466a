// Per-row markers shared by the timeline gutter, the outline and the density strip: what the
// annotation, the gold labels, the audits, the search and the answer trace say about each row.
import type { Store } from './state';
import { toolKind } from '../../../src/core/stats/toolKinds';
import { callToolName } from './format';
import { rootCauseLabel } from './taxonomy';

export const M = {
  SEARCH: 1 << 0,
  VISIT: 1 << 1,
  FINAL: 1 << 2,
  CRITICAL: 1 << 3,
  SPAN: 1 << 4,
  GOLD_CRITICAL: 1 << 5,
  GOLD_SPAN: 1 << 6,
  AUDIT: 1 << 7,
  BRANCH: 1 << 8,
  CITED: 1 << 9,
  MATCH: 1 << 10,
  CURRENT_MATCH: 1 << 11,
  ANSWER_PRED: 1 << 12,
  ANSWER_GOLD: 1 << 13,
  ERROR: 1 << 14,
  SPAN_START: 1 << 15,
  SPAN_END: 1 << 16,
  GOLD_SPAN_START: 1 << 17,
  GOLD_SPAN_END: 1 << 18,
  SUSPECT: 1 << 19,
} as const;

/** How many of an audit's ranked suspects the timeline and the density strip mark. */
export const MARKED_SUSPECTS = 3;

export interface RowNote {
  /** Short badge text, e.g. "★" or "H". */
  badge: string;
  kind: 'critical' | 'gold' | 'audit' | 'branch' | 'cited' | 'suspect' | 'answer-pred' | 'answer-gold';
  /** Full explanation for tooltips and the row's accessible label. */
  text: string;
}

export class Markers {
  /** Flags per row index. */
  flags = new Int32Array(0);
  /** Notes per row index (badges with explanations). */
  notes = new Map<number, RowNote[]>();
  version = 0;

  constructor(private readonly store: Store) {}

  recompute(): void {
    const s = this.store;
    const rows = s.rows;
    const flags = new Int32Array(rows.length);
    const notes = new Map<number, RowNote[]>();
    const note = (position: number | null | undefined, n: RowNote, flag: number) => {
      if (position === null || position === undefined) return;
      const i = s.indexOf(position);
      if (i < 0) return;
      flags[i] |= flag;
      const list = notes.get(i);
      if (list) {
        if (!list.some((x) => x.badge === n.badge && x.kind === n.kind)) list.push(n);
      } else notes.set(i, [n]);
    };
    const span = (range: [number, number] | null | undefined, flag: number, startFlag: number, endFlag: number) => {
      if (!range || range.length !== 2) return;
      const a = s.indexOf(range[0]);
      const b = s.indexOf(range[1]);
      if (a < 0 || b < 0 || a > b) return;
      for (let i = a; i <= b; i++) flags[i] |= flag;
      flags[a] |= startFlag;
      flags[b] |= endFlag;
    };

    const toolKinds = s.view?.toolKinds;
    rows.forEach((row, i) => {
      if (row.isFinalAnswer) flags[i] |= M.FINAL;
      if (row.isError) flags[i] |= M.ERROR;
      for (const [j, call] of row.calls.entries()) {
        // The host classified each call from its name and arguments; the name alone is the fallback.
        const kind = row.callKinds?.[j] ?? toolKind(callToolName(call), toolKinds);
        if (kind === 'search') flags[i] |= M.SEARCH;
        else if (kind === 'visit') flags[i] |= M.VISIT;
      }
    });

    const ann = s.annotation;
    span(ann.toleranceSpan ?? null, M.SPAN, M.SPAN_START, M.SPAN_END);
    note(ann.criticalStep, { badge: '★', kind: 'critical', text: `Your critical step (${rootCauseLabel(ann.rootCause)})` }, M.CRITICAL);

    const gold = s.view?.gold;
    if (gold) {
      span(gold.toleranceSpan ?? null, M.GOLD_SPAN, M.GOLD_SPAN_START, M.GOLD_SPAN_END);
      note(gold.criticalStep, { badge: 'G', kind: 'gold', text: `Gold critical step from file (${rootCauseLabel(gold.rootCause)})` }, M.GOLD_CRITICAL);
    }

    const newest = s.newestAudit();
    if (newest) {
      const d = newest.diagnosis;
      if (d) {
        note(d.criticalStep, { badge: 'A', kind: 'audit', text: `Audit diagnosis (${newest.method}): ${rootCauseLabel(d.rootCause)}` }, M.AUDIT);
        for (const c of d.citedSteps ?? []) note(c, { badge: '·', kind: 'cited', text: `Cited by the audit (${newest.method})` }, M.CITED);
      }
      // The offline auditor's top suspects, each with its signals and evidence (plain text: titles are inert).
      (newest.suspects ?? []).slice(0, MARKED_SUSPECTS).forEach((suspect, rank) => {
        note(suspect.step, { badge: `S${rank + 1}`, kind: 'suspect', text: suspectText(suspect, rank, newest.method) }, M.SUSPECT);
      });
      for (const b of newest.branches ?? []) {
        const letter = (b.name || '?').trim().charAt(0).toUpperCase() || '?';
        note(b.criticalStep, { badge: letter, kind: 'branch', text: `${b.name} branch proposal: ${rootCauseLabel(b.rootCause)}` }, M.BRANCH);
      }
    }

    for (const p of s.search.positions) {
      const i = s.indexOf(p);
      if (i >= 0) flags[i] |= M.MATCH;
    }
    const cur = s.search.positions[s.search.current];
    if (cur !== undefined) {
      const i = s.indexOf(cur);
      if (i >= 0) flags[i] |= M.CURRENT_MATCH;
    }

    const trace = s.trace;
    if (trace?.predicted) {
      for (const o of trace.predicted.occurrences) {
        const first = trace.predicted.first?.position === o.position;
        note(
          o.position,
          { badge: first ? '⚑' : '◦', kind: 'answer-pred', text: `${first ? 'First occurrence' : 'Occurrence'} of the predicted answer (${o.source})` },
          M.ANSWER_PRED,
        );
      }
    }
    if (trace?.gold) {
      for (const o of trace.gold.occurrences) {
        const first = trace.gold.first?.position === o.position;
        note(
          o.position,
          { badge: first ? '⚑' : '◦', kind: 'answer-gold', text: `${first ? 'First occurrence' : 'Occurrence'} of the gold answer (${o.source})` },
          M.ANSWER_GOLD,
        );
      }
    }

    this.flags = flags;
    this.notes = notes;
    this.version++;
  }
}

/** A suspect's tooltip: rank, score, signals, then each piece of evidence with its position. */
export function suspectText(
  suspect: { step: number; score: number; signals: string[]; evidence: { step: number; quote: string }[] },
  rank: number,
  method: string,
): string {
  const head = `Suspect #${rank + 1} (${method}, score ${suspect.score.toFixed(2)}): ${suspect.signals.map((s) => s.replace(/_/g, ' ')).join(', ') || 'no signal'}`;
  const lines = suspect.evidence.slice(0, 6).map((e) => `  message ${e.step}: “${e.quote.length > 120 ? `${e.quote.slice(0, 119)}…` : e.quote}”`);
  return [head, ...lines].join('\n');
}
