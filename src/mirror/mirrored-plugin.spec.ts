import { splitSignedManifest } from './mirrored-plugin';

describe('splitSignedManifest', () => {
  it("keeps the format's fields as the manifest and every other field as an extension field", () => {
    expect(splitSignedManifest({ name: 'p', version: '1.0.0', description: 'd', tags: ['a'], stars: 4, platforms: ['linux'] })).toEqual({
      manifest: { name: 'p', version: '1.0.0', description: 'd', tags: ['a'] },
      extensions: { stars: 4, platforms: ['linux'] },
    });
  });

  it('has no extension fields when the manifest has none', () => {
    expect(splitSignedManifest({ name: 'p', version: '1.0.0' })).toEqual({ manifest: { name: 'p', version: '1.0.0' }, extensions: null });
  });
});
