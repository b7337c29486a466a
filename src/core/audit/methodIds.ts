// Method ids `method[:ablation]` (seed 002 §5.3): `searchauditor:vote` names SearchAuditor with the
// vote ablation, as `trajaudit study --methods` and `score --method` take it. The id of an audit in a
// sidecar and the match rule are in newest.ts (the webview bundles it, and it imports nothing).
import { SEARCHAUDITOR_VARIANTS } from './searchAuditor';
import { AUDIT_METHODS, type AuditMethod } from './types';

export { auditMatchesMethod, auditMethodId } from './newest';

const METHODS = AUDIT_METHODS;
/** SearchAuditor's ablations: its variants but "full". */
const ABLATIONS = SEARCHAUDITOR_VARIANTS.filter((v) => v !== 'full');

export type MethodName = AuditMethod;
export type Ablation = Exclude<(typeof SEARCHAUDITOR_VARIANTS)[number], 'full'>;

export interface MethodId {
  method: MethodName;
  /** Undefined for the method as published (SearchAuditor's "full"). */
  ablation?: Ablation;
}

/** Parses `method[:ablation]`; the error says which methods and ablations exist. */
export function parseMethodId(text: string): MethodId | { error: string } {
  const [method, ablation, ...rest] = text.trim().split(':');
  if (!(METHODS as readonly string[]).includes(method)) return { error: `unknown method "${method}" (methods: ${METHODS.join(', ')})` };
  if (rest.length) return { error: `"${text}" has more than one ":"; a method id is method or method:ablation` };
  if (ablation === undefined || (method === 'searchauditor' && ablation === 'full')) return { method: method as MethodName };
  if (method !== 'searchauditor') return { error: `"${text}": only searchauditor has ablations (${ABLATIONS.join(', ')})` };
  if (!(ABLATIONS as readonly string[]).includes(ablation))
    return { error: `unknown SearchAuditor ablation "${ablation}" (ablations: ${ABLATIONS.join(', ')})` };
  return { method: 'searchauditor', ablation: ablation as Ablation };
}

export function methodIdText(id: MethodId): string {
  return id.ablation ? `${id.method}:${id.ablation}` : id.method;
}
