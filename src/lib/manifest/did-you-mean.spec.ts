import { closestMatch, levenshtein } from './did-you-mean';

describe('levenshtein', () => {
  it.each([
    ['', '', 0],
    ['abc', '', 3],
    ['kitten', 'sitting', 3],
    ['descripton', 'description', 1],
    ['licence', 'license', 1],
    ['😀a', '😀b', 1],
  ])('%j → %j is %i', (left, right, distance) => {
    expect(levenshtein(left, right)).toBe(distance);
    expect(levenshtein(right, left)).toBe(distance);
  });
});

describe('closestMatch', () => {
  const fields = ['name', 'version', 'description', 'homepage', 'tags'];

  it('suggests the nearest name within distance 2', () => {
    expect(closestMatch('descripton', fields)).toBe('description');
    expect(closestMatch('versoin', fields)).toBe('version');
    expect(closestMatch('tag', fields)).toBe('tags');
    expect(closestMatch('HomePage', fields)).toBe('homepage');
  });

  it('suggests nothing past distance 2, or for an exact match', () => {
    expect(closestMatch('website', fields)).toBeUndefined();
    expect(closestMatch('vrsoin', fields)).toBeUndefined();
    expect(closestMatch('name', ['name'])).toBeUndefined();
  });
});
