/**
 * Markup as plain data, for parts that both the server (as an HTML string) and the browser
 * scripts (as DOM nodes) draw: one builder, so a redrawn part cannot drift from the served one.
 * Nothing here may import server code: `src/web/browser` bundles it.
 */
export interface MarkupElement {
  tag: string;
  /** null/undefined/false leave the attribute out; true writes it bare. */
  attrs: Readonly<Record<string, string | boolean | null | undefined>>;
  children: readonly MarkupNode[];
}

/** Text is escaped by whichever side draws it; null/undefined/false draw nothing. */
export type MarkupNode = MarkupElement | string | null | undefined | false;

export function h(tag: string, attrs: MarkupElement['attrs'] = {}, ...children: MarkupNode[]): MarkupElement {
  return { tag, attrs, children };
}

/** Elements that have no end tag in HTML. */
export const VOID_TAGS: ReadonlySet<string> = new Set(['img', 'br', 'hr', 'input', 'source', 'meta', 'link']);
