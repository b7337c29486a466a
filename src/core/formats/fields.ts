import { normalizeRootCause } from '../model/rootCauses';
import type { GoldAnnotation } from '../model/trajectory';

type Obj = Record<string, unknown>;

export function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** First key whose value is a non-empty string (numbers are stringified). */
export function pickString(obj: Obj, keys: string[]): string | undefined {
  for (const key of keys) {
    const v = obj[key];
    if (typeof v === 'string' && v.trim() !== '') return v;
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  }
  return undefined;
}

export function toInteger(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) return Number(value);
  return undefined;
}

function toSpan(value: unknown): [number, number] | undefined {
  if (Array.isArray(value) && value.length === 2) {
    const [s, e] = [toInteger(value[0]), toInteger(value[1])];
    if (s !== undefined && e !== undefined) return [s, e];
  }
  if (isObject(value)) {
    const s = toInteger(value.start ?? value.begin ?? value.from);
    const e = toInteger(value.end ?? value.to);
    if (s !== undefined && e !== undefined) return [s, e];
  }
  return undefined;
}

/** Record id: `id`, `index` or `question_ID` (or `instance_id`), as docs/formats.md §8 says. */
export function recordIdOf(obj: Obj): string | undefined {
  return pickString(obj, ['id', 'index', 'question_ID', 'instance_id']);
}

/** Gold annotation fields under every alias docs/formats.md §4 lists. */
export function extractGold(obj: Obj): GoldAnnotation | undefined {
  const gold: GoldAnnotation = {};
  const critical = obj.critical_step ?? obj.criticalStep;
  const invalid: { path: string[]; value: unknown }[] = [];
  const criticalKey = obj.critical_step !== undefined ? 'critical_step' : 'criticalStep';
  const step = (value: unknown, path: string[]): number | undefined => {
    const n = toInteger(value);
    if (n === undefined && value !== undefined && value !== null) invalid.push({ path, value });
    return n;
  };
  if (isObject(critical)) {
    const key = ['step', 'critical_step', 'position', 'index', 'message'].find((k) => critical[k] !== undefined && critical[k] !== null) ?? 'step';
    gold.criticalStep = step(critical[key], [criticalKey, key]);
    gold.toleranceSpan = toSpan(critical.span ?? critical.tolerance_span ?? critical.critical_span ?? critical.range);
  } else {
    gold.criticalStep = step(critical, [criticalKey]);
  }
  gold.toleranceSpan ??= toSpan(obj.tolerance_span ?? obj.critical_span ?? obj.toleranceSpan);
  if (invalid.length) gold.invalidSteps = invalid;
  const cause = obj.root_cause_primary ?? obj.root_cause ?? obj.rootCause;
  if (typeof cause === 'string' && cause.trim()) {
    gold.rootCause = normalizeRootCause(cause);
    if (!gold.rootCause) gold.rootCauseRaw = cause;
  }
  if (typeof obj.rationale === 'string') gold.rationale = obj.rationale;
  if (typeof obj.repair_directive === 'string') gold.repairDirective = obj.repair_directive;
  if (Array.isArray(obj.repair_rubrics)) gold.repairRubrics = obj.repair_rubrics.filter((r): r is string => typeof r === 'string');
  const present = Object.values(gold).some((v) => v !== undefined);
  return present ? gold : undefined;
}

/** Fields we do not map, kept so that nothing of the source is hidden from the user. */
export function remainingFields(obj: Obj, used: string[]): Obj {
  const out: Obj = {};
  for (const [key, value] of Object.entries(obj)) if (!used.includes(key)) out[key] = value;
  return out;
}
