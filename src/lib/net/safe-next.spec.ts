import { DEFAULT_NEXT, safeNext, sameOriginNext } from './safe-next';

describe('safeNext', () => {
  it('keeps a path on this site', () => {
    expect(safeNext('/admin/users?page=2')).toBe('/admin/users?page=2');
    expect(safeNext('/')).toBe('/');
  });

  it('refuses other sites, scheme-relative tricks, backslashes and control characters', () => {
    const bad = [
      undefined,
      null,
      42,
      '',
      'admin',
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      '/\r//evil.example',
      '/x\nLocation: y',
      '/a\\b',
      `/x\u007f`,
      `/${'a'.repeat(600)}`,
    ];
    for (const value of bad) expect(safeNext(value)).toBe(DEFAULT_NEXT);
  });
});

describe('sameOriginNext', () => {
  const origin = 'https://registry.example';
  it('keeps a path that stays on the origin', () => {
    expect(sameOriginNext('/plugins?q=x', origin)).toBe('/plugins?q=x');
  });
  it('refuses anything that would leave it', () => {
    for (const value of ['//evil.example', '/\t/evil.example', 'https://evil.example/', '/\\evil.example'])
      expect(sameOriginNext(value, origin)).toBe(DEFAULT_NEXT);
  });
});
