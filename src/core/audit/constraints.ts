/** Explicit constraints of a query that can be checked against evidence text. */
export interface QueryConstraint {
  kind: 'year' | 'year-range' | 'number' | 'quoted' | 'entity';
  text: string;
}

const STOP_CAPITALS = new Set([
  'Which',
  'What',
  'Who',
  'Whom',
  'Whose',
  'When',
  'Where',
  'Why',
  'How',
  'The',
  'A',
  'An',
  'In',
  'On',
  'At',
  'Of',
  'For',
  'From',
  'This',
  'That',
  'These',
  'Those',
  'It',
  'Its',
  'I',
  'Name',
  'Give',
  'Find',
  'Identify',
  'Please',
  'Answer',
  'And',
  'Or',
  'But',
  'If',
  'As',
  'By',
  'With',
  'To',
]);

/** Years, other numbers, quoted phrases and capitalized names of a query (deterministic). */
export function extractConstraints(query: string): QueryConstraint[] {
  const out: QueryConstraint[] = [];
  const seen = new Set<string>();
  const add = (kind: QueryConstraint['kind'], text: string) => {
    const key = `${kind}:${text.toLowerCase()}`;
    if (!seen.has(key) && text.trim()) {
      seen.add(key);
      out.push({ kind, text: text.trim() });
    }
  };
  for (const m of query.matchAll(/["“«„]([^"”»]{2,80})["”»]/g)) add('quoted', m[1]);
  const inRanges = new Set<string>();
  for (const m of query.matchAll(/\b(?:between\s+)?(1[5-9]\d\d|20\d\d)\s*(?:and|to|[-–—])\s*(1[5-9]\d\d|20\d\d)\b/gi)) {
    add('year-range', `${m[1]}–${m[2]}`);
    inRanges.add(m[1]).add(m[2]);
  }
  for (const m of query.matchAll(/\b(1[5-9]\d\d|20\d\d)s?\b/g)) if (!inRanges.has(m[1])) add('year', m[1]);
  for (const m of query.matchAll(/\b\d+(?:[.,]\d+)?\b/g)) if (!/^(1[5-9]\d\d|20\d\d)$/.test(m[0])) add('number', m[0]);
  for (const m of query.matchAll(/\b([A-Z][\p{L}-]+(?:\s+(?:of|the|de|van|von|la|del)?\s*[A-Z][\p{L}-]+)*)\b(?!['’])/gu)) {
    const words = m[1].split(/\s+/);
    if (words.length === 1 && STOP_CAPITALS.has(words[0])) continue;
    // A single capitalized word opening a sentence is not a name.
    const before = query.slice(0, m.index).trimEnd();
    if (words.length === 1 && (before === '' || /[.?!:]$/.test(before))) continue;
    add('entity', words[0] && STOP_CAPITALS.has(words[0]) ? words.slice(1).join(' ') : m[1]);
  }
  return out.filter((c) => c.text.length > 1);
}

/** Whether evidence text supports a constraint: contains it, or (ranges) any year inside it. */
export function supports(text: string, c: QueryConstraint): boolean {
  if (c.kind === 'year-range') {
    const [from, to] = c.text.split('–').map(Number);
    for (const m of text.matchAll(/\b(1[5-9]\d\d|20\d\d)\b/g)) if (Number(m[1]) >= from && Number(m[1]) <= to) return true;
    return false;
  }
  return text.toLowerCase().includes(c.text.toLowerCase());
}
