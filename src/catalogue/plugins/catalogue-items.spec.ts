import { CatalogueItems } from './catalogue-items';
import type { CatalogueItemDto } from './dto/catalogue.dto';

const parsed = (texts: string[] | null) => texts?.map((text) => JSON.parse(text) as CatalogueItemDto) ?? null;

const item = (id: string, overrides: Partial<CatalogueItemDto> = {}): CatalogueItemDto => ({
  id,
  slug: `plugin-${id}`,
  name: `Plugin ${id}`,
  description: 'A plugin',
  category: 'Editors',
  kind: 'tool',
  tags: ['git', 'lint'],
  license: 'MIT',
  icon: null,
  images: {},
  latestVersion: '1.0.0',
  latestPrerelease: null,
  createdAt: 1,
  updatedAt: 2,
  downloads: 3,
  featured: false,
  verified: false,
  verifiedAt: null,
  extensions: { stars: 3 },
  repoUrl: `https://git.example.org/o/${id}`,
  deprecated: null,
  ...overrides,
});

describe('CatalogueItems', () => {
  it('answers the held items of a page in its order, or null when any is missing', () => {
    const items = new CatalogueItems();
    items.keep([item('a'), item('b'), item('c')], items.epoch);
    expect(parsed(items.texts(['c', 'a']))!.map((i) => i.id)).toEqual(['c', 'a']);
    expect(items.texts(['a', 'z'])).toBeNull();
    expect(items.texts([])).toEqual([]);
    expect(items.size).toBe(3);
  });

  it('holds the item as its JSON text, unchanged by what later happens to the object kept', () => {
    const items = new CatalogueItems();
    const original = item('a');
    items.keep([original], items.epoch);
    const expected = JSON.stringify(original);
    original.downloads = 99;
    original.tags.push('changed');
    expect(items.texts(['a'])).toEqual([expected]);
  });

  it('forgets an item, and refuses a read that began before anything was forgotten', () => {
    const items = new CatalogueItems();
    items.keep([item('a'), item('b')], items.epoch);
    const before = items.epoch;
    items.forget('a');
    expect(items.texts(['a'])).toBeNull();
    // A read in flight while `a` changed may hold its old row: nothing of it is kept.
    items.keep([item('a', { name: 'old' }), item('c')], before);
    expect(items.texts(['a'])).toBeNull();
    expect(items.texts(['c'])).toBeNull();
    items.keep([item('a', { name: 'new' })], items.epoch);
    expect(parsed(items.texts(['a']))![0].name).toBe('new');
  });

  it('forgetting an item it does not hold still moves the epoch', () => {
    const items = new CatalogueItems();
    const before = items.epoch;
    items.forget('nobody');
    items.keep([item('a')], before);
    expect(items.size).toBe(0);
  });

  it('keeps its size estimate in step with what it holds', () => {
    const items = new CatalogueItems();
    expect(items.approximateBytes()).toBe(0);
    items.keep([item('a'), item('b')], items.epoch);
    const two = items.approximateBytes();
    expect(two).toBeGreaterThan(2 * JSON.stringify(item('a')).length);
    items.keep([item('a')], items.epoch); // replacing is not adding
    expect(items.approximateBytes()).toBe(two);
    items.forget('a');
    items.forget('b');
    expect(items.approximateBytes()).toBe(0);
  });
});
