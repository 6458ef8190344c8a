import { imageProxyKey, isSignedImageUrl, proxiedImageSrc, signImageUrl } from './proxy-signature';

const kek = Buffer.alloc(32, 7);

describe('the image proxy signature', () => {
  const key = imageProxyKey(kek);
  const url = 'https://cdn.example.org/shots/one.png?size=2';

  it('derives a 32-byte key of its own from KEY_ENCRYPTION_KEY, the same on every instance', () => {
    expect(key).toHaveLength(32);
    expect(key.equals(kek)).toBe(false);
    expect(imageProxyKey(Buffer.alloc(32, 7)).equals(key)).toBe(true);
    expect(imageProxyKey(Buffer.alloc(32, 8)).equals(key)).toBe(false);
  });

  it('accepts the signature it wrote and nothing else', () => {
    const sig = signImageUrl(key, url);
    expect(isSignedImageUrl(key, url, sig)).toBe(true);
    expect(isSignedImageUrl(key, `${url}&x=1`, sig)).toBe(false);
    expect(isSignedImageUrl(key, url, `${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}`)).toBe(false);
    expect(isSignedImageUrl(key, url, sig.toUpperCase())).toBe(false);
    expect(isSignedImageUrl(key, url, sig.slice(0, 32))).toBe(false);
    expect(isSignedImageUrl(key, url, '')).toBe(false);
    expect(isSignedImageUrl(imageProxyKey(Buffer.alloc(32, 9)), url, sig)).toBe(false);
  });

  it('writes a same-origin address whose url parameter reads back as the URL', () => {
    const src = proxiedImageSrc(key, url);
    expect(src.startsWith('/image-proxy?url=')).toBe(true);
    const parsed = new URL(src, 'http://registry.test');
    expect(parsed.searchParams.get('url')).toBe(url);
    expect(isSignedImageUrl(key, parsed.searchParams.get('url')!, parsed.searchParams.get('sig')!)).toBe(true);
  });
});
