/** How much README text the search document keeps: enough for every word a user would search by. */
export const README_SEARCH_TEXT_MAX = 20_000;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };

/**
 * The plain text of a release's rendered README for the catalogue search: the default (or
 * English, else first) locale, tags dropped, whitespace collapsed, bounded. The HTML is our own
 * sanitized rendering, so dropping tags is enough.
 */
export function readmeSearchText(readmeHtml: Record<string, string>): string {
  const html = readmeHtml.default ?? readmeHtml.en ?? Object.values(readmeHtml)[0] ?? '';
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name])
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, README_SEARCH_TEXT_MAX);
}
