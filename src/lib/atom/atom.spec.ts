import { parseFeed } from '@rowanmanning/feed-parser';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { renderAtomFeed, xmlText, type AtomFeed } from './atom';

const feed = (overrides: Partial<AtomFeed> = {}): AtomFeed => ({
  id: 'https://registry.example/feeds/releases.atom',
  title: 'Registry: new releases',
  updated: new Date(Date.UTC(2026, 10, 27, 12, 0, 0)),
  links: [
    { rel: 'self', type: 'application/atom+xml', href: 'https://registry.example/feeds/releases.atom' },
    { rel: 'alternate', type: 'text/html', href: 'https://registry.example/plugins' },
  ],
  authors: [{ name: 'Registry', uri: 'https://registry.example/' }],
  entries: [
    {
      id: 'tag:registry.example,2026:release/aurora/1.2.0',
      title: 'Aurora 1.2.0',
      updated: new Date(Date.UTC(2026, 10, 27, 12, 0, 0)),
      published: new Date(Date.UTC(2026, 10, 27, 12, 0, 0)),
      links: [{ rel: 'alternate', type: 'text/html', href: 'https://registry.example/plugins/aurora' }],
      authors: [{ name: 'alice' }],
      summary: 'Northern lights',
      categories: [{ term: 'theme', label: 'Themes' }],
    },
  ],
  ...overrides,
});

describe('renderAtomFeed', () => {
  it('writes a well-formed Atom document that a feed parser reads back', () => {
    const xml = renderAtomFeed(feed());
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = parseFeed(xml);
    expect(parsed.meta.type).toBe('atom');
    expect(parsed.title).toBe('Registry: new releases');
    expect(parsed.self).toBe('https://registry.example/feeds/releases.atom');
    expect(parsed.url).toBe('https://registry.example/plugins');
    expect(parsed.items.map((i) => [i.id, i.title, i.url, i.description, i.authors[0]?.name])).toEqual([
      [
        'tag:registry.example,2026:release/aurora/1.2.0',
        'Aurora 1.2.0',
        'https://registry.example/plugins/aurora',
        'Northern lights',
        'alice',
      ],
    ]);
    expect(parsed.items[0].published?.toISOString()).toBe('2026-11-27T12:00:00.000Z');
  });

  it('escapes markup and drops the characters XML 1.0 cannot carry, in text and attributes', () => {
    const hostile = 'a<script>alert(1)</script> & "b" \u0000\u0007\u001b\uFFFE\uD800 c 😀';
    const xml = renderAtomFeed(
      feed({
        title: hostile,
        entries: [{ ...feed().entries[0], title: hostile, summary: hostile, categories: [{ term: hostile, label: hostile }] }],
      }),
    );
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).not.toContain('<script>');
    const clean = 'a<script>alert(1)</script> & "b"  c 😀';
    const parsed = new XMLParser({ ignoreAttributes: false, processEntities: true, htmlEntities: false }).parse(xml) as {
      feed: { title: { '#text': string }; entry: { summary: { '#text': string }; category: { '@_term': string } } };
    };
    expect(parsed.feed.title['#text']).toBe(clean);
    expect(parsed.feed.entry.summary['#text']).toBe(clean);
    expect(parsed.feed.entry.category['@_term']).toBe(clean);
  });

  it('writes an empty feed with its required elements', () => {
    const xml = renderAtomFeed(feed({ entries: [] }));
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(parseFeed(xml).items).toEqual([]);
    expect(xml).toMatch(/<updated>2026-11-27T12:00:00.000Z<\/updated>/);
  });

  it('xmlText leaves tabs, newlines and astral characters alone', () => {
    expect(xmlText('a\tb\nc\rd 𝄞')).toBe('a\tb\nc\rd 𝄞');
    expect(xmlText("'")).toBe('&apos;');
  });
});
