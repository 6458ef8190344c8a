import { escapeMarkup } from '../lib/markup/escape';
import { VOID_TAGS, type MarkupNode } from './components/markup-tree';

/** Markup that is already safe to send: built by `html` or marked by `raw` (for sanitized HTML). */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export const escapeHtml = escapeMarkup;

export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value as string | number | boolean));
}

/**
 * A template tag that escapes every interpolated value unless it is SafeHtml, so a page cannot
 * forget to escape a plugin's name or a README title; arrays join, null/undefined/false vanish.
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i += 1) out += render(values[i]) + strings[i + 1];
  return new SafeHtml(out);
}

/** Marks HTML the server already sanitized (a README, a CMS page) as safe to embed. */
export function raw(sanitized: string): SafeHtml {
  return new SafeHtml(sanitized);
}

/** JSON for a `<script type="application/json">` data block: `<` escaped so it cannot close the tag. */
export function jsonData(value: unknown): SafeHtml {
  return new SafeHtml(JSON.stringify(value).replace(/</g, '\\u003c'));
}

/** A shared part's markup (components/markup-tree.ts) as HTML, every text and attribute escaped. */
export function markupHtml(node: MarkupNode): SafeHtml {
  return new SafeHtml(markupString(node));
}

function markupString(node: MarkupNode): string {
  if (node === null || node === undefined || node === false) return '';
  if (typeof node === 'string') return escapeHtml(node);
  let attrs = '';
  for (const [name, value] of Object.entries(node.attrs)) {
    if (value === false || value === null || value === undefined) continue;
    attrs += value === true ? ` ${name}` : ` ${name}="${escapeHtml(value)}"`;
  }
  if (VOID_TAGS.has(node.tag)) return `<${node.tag}${attrs}>`;
  return `<${node.tag}${attrs}>${node.children.map(markupString).join('')}</${node.tag}>`;
}
