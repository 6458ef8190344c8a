import fc from 'fast-check';
import { extensionFilterKeys, filterKeys, searchWords, textWords, WordScanner } from './tokenize';

describe('searchWords and textWords', () => {
  const byRegex = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

  it('finds the words the catalogue service finds: lowercase letters and digits, unicode-aware', () => {
    expect(textWords('Markdown-Preview v2.0 (beta)')).toEqual(['markdown', 'preview', 'v2', '0', 'beta']);
    expect(textWords('Ünïcode Straße 日本語の入力 😀 x')).toEqual(['ünïcode', 'straße', '日本語の入力', 'x']);
    expect(textWords('')).toEqual([]);
    expect(textWords(null)).toEqual([]);
  });

  it('agrees with the regular expression on any text, astral letters and lone surrogates included', () => {
    const unit = fc.oneof(
      fc.integer({ min: 0, max: 0x10ffff }).map((point) => String.fromCodePoint(point)),
      fc.constantFrom('-', ' ', 'É', 'ß', 'İ', '\ud800', '\udc00', '𝒜', '٣'),
    );
    fc.assert(
      fc.property(
        fc.array(unit, { maxLength: 40 }).map((units) => units.join('')),
        (text) => {
          expect(textWords(text)).toEqual(byRegex(text));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('keeps the first eight words of a search', () => {
    expect(searchWords('a b c d e f g h i j')).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
    expect(searchWords(undefined)).toEqual([]);
  });

  it('reports word bounds in the scanned text', () => {
    const scanner = new WordScanner();
    const text = 'ab, cd-ef '.repeat(40);
    const count = scanner.scan(text);
    expect(count).toBe(120);
    expect(text.slice(scanner.starts[119], scanner.ends[119])).toBe('ef');
  });
});

describe('extensionFilterKeys', () => {
  it('gives a scalar by its text and an array by its scalar members; objects and nulls give nothing', () => {
    const keys: string[] = [];
    extensionFilterKeys({ stars: 5, name: '5', on: true, list: ['a', 2, false, null, { x: 1 }], nested: { a: 1 }, none: null }, keys);
    expect(keys).toEqual([
      filterKeys.extension('stars', '5'),
      filterKeys.extension('name', '5'),
      filterKeys.extension('on', 'true'),
      filterKeys.extension('list', 'a'),
      filterKeys.extension('list', '2'),
      filterKeys.extension('list', 'false'),
    ]);
  });
});
