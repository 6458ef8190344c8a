import fc from 'fast-check';
import { DeletionMap, typoEligible, withinOneEdit } from './typo-dictionary';

/** Optimal string alignment distance, the textbook table. */
function osaDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

const shortWord = fc.stringMatching(/^[abc]{0,7}$/);

describe('withinOneEdit', () => {
  it.each([
    ['markdown', 'mardown', true],
    ['markdown', 'markdwon', true],
    ['markdown', 'marjdown', true],
    ['markdown', 'markdowns', true],
    ['markdown', 'markdown', true],
    ['markdown', 'mrakdwon', false],
    ['markdown', 'markdo', false],
    ['ab', 'ba', true],
  ])('%s and %s: %s', (a, b, expected) => {
    expect(withinOneEdit(a, b)).toBe(expected);
  });

  it('agrees with the optimal string alignment distance', () => {
    fc.assert(
      fc.property(shortWord, shortWord, (a, b) => {
        expect(withinOneEdit(a, b)).toBe(osaDistance(a, b) <= 1);
      }),
      { numRuns: 5000 },
    );
  });
});

describe('typoEligible', () => {
  it('takes words of five to 32 characters without digits', () => {
    expect(['theme', 'markdown', 'straße'].map(typoEligible)).toEqual([true, true, true]);
    expect(['dark', 'zoom5', '12345', 'x'.repeat(33)].map(typoEligible)).toEqual([false, false, false, false]);
  });
});

describe('DeletionMap', () => {
  it('offers every dictionary word one edit from the query among its candidates', () => {
    fc.assert(
      fc.property(fc.uniqueArray(shortWord, { maxLength: 30 }), shortWord, (dictionary, query) => {
        const map = new DeletionMap();
        dictionary.forEach((word, id) => map.add(word, id));
        const candidates = new Set<number>();
        map.candidates(query, (id) => candidates.add(id));
        // An extra letter in the query is found by looking its deletions up in the vocabulary itself.
        const deletions = new Set(Array.from(query, (_, i) => query.slice(0, i) + query.slice(i + 1)));
        dictionary.forEach((word, id) => {
          if (word !== query && osaDistance(word, query) === 1 && word.length >= query.length) expect(candidates.has(id)).toBe(true);
          if (word.length === query.length - 1 && osaDistance(word, query) === 1) expect(deletions.has(word)).toBe(true);
        });
      }),
      { numRuns: 1000 },
    );
  });

  it('grows past its first table', () => {
    const map = new DeletionMap();
    for (let id = 0; id < 2000; id++) map.add(`word${id.toString(36)}xyz`, id);
    const found: number[] = [];
    map.candidates('word1xyz', (id) => found.push(id));
    expect(found).toContain(1);
  });
});
