// Two-judge agreement (seed 004 §7, judge robustness): for every pair of judges with verdicts on
// the same units in a run's judgment cache, the share of units labelled alike and Cohen's κ.
import { cohenKappa } from '../agreement';
import type { JudgmentCache } from './cache';

export interface JudgeAgreementRow {
  /** Judge identity keys, "provider:model:prompt/version", judge_a < judge_b. */
  judge_a: string;
  judge_b: string;
  /** Units (rubrics, nuggets, answer items, answers) both judged on the same input. */
  n: number;
  agreement: number;
  /** Null when κ is undefined (both judges gave one and the same label throughout). */
  cohen_kappa: number | null;
}

/** One row per pair of judges sharing at least one unit; empty with fewer than two judges. */
export function judgeAgreement(cache: JudgmentCache): JudgeAgreementRow[] {
  const byJudge = cache.labelsByJudge();
  const judges = [...byJudge.keys()].sort();
  const rows: JudgeAgreementRow[] = [];
  for (let i = 0; i < judges.length; i++) {
    for (let j = i + 1; j < judges.length; j++) {
      const a = byJudge.get(judges[i]) as Map<string, { label: string; inputHash?: string }>;
      const b = byJudge.get(judges[j]) as Map<string, { label: string; inputHash?: string }>;
      const pairs: [string, string][] = [];
      for (const [unit, x] of a) {
        const y = b.get(unit);
        // Verdicts on different inputs (the response changed in between) are not compared; a line without a hash is taken as made for any.
        if (y && (x.inputHash === undefined || y.inputHash === undefined || x.inputHash === y.inputHash)) pairs.push([x.label, y.label]);
      }
      if (pairs.length === 0) continue;
      const agree = pairs.filter(([x, y]) => x === y).length;
      rows.push({ judge_a: judges[i], judge_b: judges[j], n: pairs.length, agreement: agree / pairs.length, cohen_kappa: cohenKappa(pairs) });
    }
  }
  return rows;
}
