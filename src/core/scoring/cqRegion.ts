// Clarification-question dimensions (seed 004): time, region, entity scope, definition. When a
// clarification turn gives no `dimension`, a small keyword classifier assigns one.
//
// The classifier matches each dimension's keyword list (English and Chinese) against the lower-cased
// NFKC question. A question is `region` only when it matches region keywords and no other
// dimension's ("region-only", the paper's failure mode): "Which city?" is region, "Which city and
// which year?" is not. A question matching nothing is `other`; one matching several is `mixed`.
// A framing that asks for confirmation ("Do you mean …", "Are you referring to …", "你指的是 …",
// "您是指 …") is not a definition question: definition needs "what … mean" / "指的是什么" /
// "stand for" / 含义 / 定义. Qualifiers (specific, particular, exactly, 具体) are no scope keywords:
// "Do you mean a specific region or city?" asks for a region.
// It is deliberately simple and documented; give `dimension` in clarifications.jsonl for exact rates.

export type CqDimension = 'time' | 'region' | 'entity' | 'scope' | 'definition' | 'mixed' | 'other';

const KEYWORDS: Record<Exclude<CqDimension, 'mixed' | 'other'>, RegExp> = {
  region:
    /\b(where|region|regions|regional|country|countries|nation|national|city|cities|state|province|location|located|local|area|place|geograph\w*|continent|county|district|nationwide|worldwide|global(?:ly)?|domestic|overseas|abroad)\b|地区|地域|区域|哪里|哪儿|哪个城市|哪个国家|哪个省|国家|城市|省份|地点|位置|国内|国外|海外|全球|本地|当地/u,
  time: /\b(when|year|years|month|months|date|dates|time|period|recent|latest|current(?:ly)?|since|before|after|quarter|decade|season|today|now)\b|时间|年份|哪一年|几年|月份|日期|近期|最近|最新|目前|当前|时期|季度|期间/u,
  entity:
    /\b(which (?:company|companies|brand|product|model|person|organi[sz]ation|team|school|university)|who|whose|brand|company|product|model|version)\b|哪家|哪个品牌|哪款|哪个公司|哪位|品牌|公司|产品|型号|版本|机构/u,
  scope:
    /\b(scope|range|all|every|only|include|exclude|type|types|kind|kinds|category|categories|aspect|aspects|how many|level)\b|范围|哪些方面|哪方面|类型|种类|类别|包括|所有|全部|层面/u,
  definition:
    /\b(meaning|define|defined|definition|stand for|stands for)\b|\bwhat (?:do|does|did) .{0,60}\b(?:mean|refer to)\b|\bwhat is meant\b|指的是什么|是指什么|指什么|含义|定义|什么意思|意思是/u,
};

export function classifyQuestion(question: string): CqDimension {
  const q = question.normalize('NFKC').toLowerCase();
  const hits = (Object.keys(KEYWORDS) as (keyof typeof KEYWORDS)[]).filter((d) => KEYWORDS[d].test(q));
  if (hits.length === 0) return 'other';
  if (hits.length > 1) return 'mixed';
  return hits[0];
}

const REGION_ALIASES = new Set(['region', 'location', 'geography', 'geo', 'place', 'area', '地区', '地域', '区域']);

/** The dimension of a turn: the given one (region aliases folded to "region"), else classified. */
export function dimensionOf(turn: { question: string; dimension?: string | null }): string {
  const given = turn.dimension?.trim().toLowerCase();
  if (given) return REGION_ALIASES.has(given) ? 'region' : given;
  return classifyQuestion(turn.question);
}

/** An answer meaning "unknown" (closed-book User Answerer): unknown / "unknown." / 未知 / 不知道, any case. */
export function isUnknownAnswer(answer: string | null | undefined): boolean {
  if (answer === null || answer === undefined) return true;
  const a = answer
    .normalize('NFKC')
    .trim()
    .toLowerCase()
    .replace(/^["'“”‘’]+|["'“”‘’.。!！]+$/g, '')
    .trim();
  return a === 'unknown' || a === '未知' || a === '不知道' || a === '';
}
