/** Inner texts of every <tag>…</tag> (an unclosed last tag runs to the end). indexOf-based: linear on huge texts. */
export function tagContents(text: string, tag: string): string[] {
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  const out: string[] = [];
  let from = text.indexOf(open);
  while (from !== -1) {
    const start = from + open.length;
    const end = text.indexOf(close, start);
    out.push(text.slice(start, end === -1 ? text.length : end));
    if (end === -1) break;
    from = text.indexOf(open, end + close.length);
  }
  return out;
}

/** The text with every <tag>…</tag> block removed. */
export function withoutTag(text: string, tag: string): string {
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  let out = '';
  let cursor = 0;
  let from = text.indexOf(open);
  while (from !== -1) {
    out += text.slice(cursor, from);
    const end = text.indexOf(close, from + open.length);
    if (end === -1) return out;
    cursor = end + close.length;
    from = text.indexOf(open, cursor);
  }
  return out + text.slice(cursor);
}
