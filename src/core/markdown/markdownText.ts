// Text from trajectories, datasets and model replies placed into Markdown reports. Such text is
// scraped from the web or written by a model, so it must render as itself: no HTML, no links or
// images (a remote image is fetched when the report is previewed), no emphasis or table breaks.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/**
 * One line of inert Markdown text: whitespace runs collapsed to one space, `&`, `<`, `>` as
 * entities, and the punctuation that makes links, images, code, emphasis and table cells
 * backslash-escaped (CommonMark renders an escaped character as itself).
 */
export function markdownText(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/[&<>]/g, (c) => ENTITIES[c])
    .replace(/[\\`*_[\]|~]/g, '\\$&');
}
