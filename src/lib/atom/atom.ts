/**
 * A small Atom (RFC 4287) writer: a feed model in, a well-formed XML 1.0 document out. Every text
 * and attribute value is stripped of the characters XML 1.0 cannot carry and then escaped, so
 * nothing a publisher wrote (a name, a description) can break the document or add markup to it.
 * Framework-free: no Nest, no database.
 */

export interface AtomPerson {
  name: string;
  uri?: string;
}

export interface AtomLink {
  href: string;
  rel: 'self' | 'alternate' | 'related';
  type?: string;
  title?: string;
}

export interface AtomCategory {
  term: string;
  label?: string;
}

export interface AtomEntry {
  /** A permanent, unique IRI: the same release always has the same id. */
  id: string;
  title: string;
  updated: Date;
  published?: Date;
  links: readonly AtomLink[];
  /** Left empty, the entry takes the feed's authors (RFC 4287 4.1.2). */
  authors: readonly AtomPerson[];
  /** Plain text (`type="text"`); never markup. */
  summary?: string | null;
  categories?: readonly AtomCategory[];
}

export interface AtomFeed {
  id: string;
  title: string;
  subtitle?: string;
  updated: Date;
  links: readonly AtomLink[];
  authors: readonly AtomPerson[];
  generator?: { name: string; uri?: string };
  /** Newest first, as written. */
  entries: readonly AtomEntry[];
}

export const ATOM_CONTENT_TYPE = 'application/atom+xml; charset=utf-8';

/** Characters XML 1.0 allows (its `Char` production); lone surrogates fall outside it too. */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text for XML element content or a quoted attribute value: illegal characters dropped, the five specials escaped. */
export function xmlText(text: string): string {
  return text.replace(NOT_XML_CHAR, '').replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** An Atom date construct (RFC 3339 in UTC, milliseconds included). */
export function atomDate(date: Date): string {
  return date.toISOString();
}

function attributes(values: Record<string, string | undefined>): string {
  return Object.entries(values)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => ` ${name}="${xmlText(value)}"`)
    .join('');
}

function element(name: string, text: string, attrs: Record<string, string | undefined> = {}): string {
  return `<${name}${attributes(attrs)}>${xmlText(text)}</${name}>`;
}

function link(l: AtomLink): string {
  return `<link${attributes({ rel: l.rel, type: l.type, href: l.href, title: l.title })}/>`;
}

function person(tag: 'author', p: AtomPerson): string {
  return `<${tag}>${element('name', p.name)}${p.uri ? element('uri', p.uri) : ''}</${tag}>`;
}

function entry(e: AtomEntry): string {
  const lines = [
    element('id', e.id),
    element('title', e.title, { type: 'text' }),
    element('updated', atomDate(e.updated)),
    ...(e.published ? [element('published', atomDate(e.published))] : []),
    ...e.authors.map((p) => person('author', p)),
    ...e.links.map(link),
    ...(e.categories ?? []).map((c) => `<category${attributes({ term: c.term, label: c.label })}/>`),
    ...(e.summary ? [element('summary', e.summary, { type: 'text' })] : []),
  ];
  return `  <entry>\n${lines.map((line) => `    ${line}\n`).join('')}  </entry>\n`;
}

/** The whole document, UTF-8, newest entry first as given. */
export function renderAtomFeed(feed: AtomFeed): string {
  const head = [
    element('id', feed.id),
    element('title', feed.title, { type: 'text' }),
    ...(feed.subtitle ? [element('subtitle', feed.subtitle, { type: 'text' })] : []),
    element('updated', atomDate(feed.updated)),
    ...feed.authors.map((p) => person('author', p)),
    ...feed.links.map(link),
    ...(feed.generator ? [element('generator', feed.generator.name, { uri: feed.generator.uri })] : []),
  ];
  return `<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n${head.map((line) => `  ${line}\n`).join('')}${feed.entries.map(entry).join('')}</feed>\n`;
}
