import { isCatalogueWrite, responseCacheKey } from './cache-key';

const get = (url: string, headers: Record<string, string> = {}) => ({ method: 'GET', originalUrl: url, headers });

describe('responseCacheKey', () => {
  it('keys the catalogue reads by path and sorted query', () => {
    expect(responseCacheKey(get('/api/plugins?sort=new&page=2'))).toBe('/api/plugins?page=2&sort=new');
    expect(responseCacheKey(get('/api/plugins?page=2&sort=new'))).toBe('/api/plugins?page=2&sort=new');
    expect(responseCacheKey(get('/api/plugins'))).toBe('/api/plugins?');
    expect(responseCacheKey(get('/api/plugins/md'))).toBe('/api/plugins/md?');
    expect(responseCacheKey(get('/api/plugins/md/releases/1.0.0'))).toBe('/api/plugins/md/releases/1.0.0?');
    expect(responseCacheKey({ ...get('/api/plugins'), method: 'HEAD' })).toBe('/api/plugins?');
    for (const feed of ['/feeds/releases.atom', '/feeds/kinds/theme.atom', '/feeds/plugins/md.atom', '/feeds/owners/github/alice.atom']) {
      expect(responseCacheKey(get(feed))).toBe(`${feed}?`);
    }
  });

  it('keeps the order of a repeated parameter, which a handler may read', () => {
    expect(responseCacheKey(get('/api/plugins?b=1&a=2&a=1'))).toBe('/api/plugins?a=2&a=1&b=1');
    expect(responseCacheKey(get('/api/plugins?a=1&a=2'))).not.toBe(responseCacheKey(get('/api/plugins?a=2&a=1')));
  });

  it('puts the platform a User-Agent names into the key of /latest only', () => {
    const linux = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)' };
    expect(responseCacheKey(get('/api/plugins/md/latest', linux))).toBe('/api/plugins/md/latest?#linux/x64');
    expect(responseCacheKey(get('/api/plugins/md/latest', { 'user-agent': 'curl/8' }))).toBe('/api/plugins/md/latest?#-/-');
    expect(responseCacheKey(get('/api/plugins/md', linux))).toBe('/api/plugins/md?');
  });

  it('never shares the answer to a caller who may see more, nor anything but the catalogue reads', () => {
    expect(responseCacheKey(get('/api/plugins', { authorization: 'Bearer x' }))).toBeNull();
    expect(responseCacheKey(get('/api/plugins', { authorization: '' }))).toBeNull();
    for (const cookie of [
      'a=1; registry_session=jwt',
      'registry_session =jwt',
      'registry_session\t=jwt',
      'a=1;registry_session = "jwt"',
      'registry_session=',
    ]) {
      expect(responseCacheKey(get('/api/plugins', { cookie }))).toBeNull();
    }
    for (const cookie of ['other=1', 'registry_sessions=1', 'xregistry_session=1', 'Registry_Session=jwt', 'registry_session']) {
      expect(responseCacheKey(get('/api/plugins', { cookie }))).toBe('/api/plugins?');
    }
    expect(responseCacheKey({ ...get('/api/plugins'), method: 'POST' })).toBeNull();
    for (const url of [
      '/api/plugins/md/stats',
      '/api/plugins/md/releases/1.0.0/manifest',
      '/api/plugins/md/releases/1.0.0/assets/a.zip',
      '/api/stats',
      '/api/auth/me',
      '/health/ready',
      '/feeds/releases',
      '/feeds/x/y.atom',
    ]) {
      expect(responseCacheKey(get(url))).toBeNull();
    }
  });
});

describe('isCatalogueWrite', () => {
  it.each([
    ['POST', '/api/publish/md', true],
    ['PUT', '/api/admin/kinds/theme', true],
    ['DELETE', '/api/admin/plugins/md/releases/1.0.0', true],
    ['PATCH', '/api/admin/settings', true],
    ['GET', '/api/plugins', false],
    ['POST', '/api/auth/logout', false],
    ['POST', '/api/requests/1/upvote', false],
    ['POST', '/api/publish/oidc/token', false],
    ['POST', '/api/publish/oidc/yank', true],
    ['POST', '/api/plugins/md/trusted-publishers', false],
    ['DELETE', '/api/plugins/md/trusted-publishers/1', false],
    ['POST', '/auth/github/callback', false],
    // Route templates, as the interceptor passes them.
    ['POST', '/api/publish/:slug/yank', true],
    ['POST', '/api/admin/plugins/:slug/verify', true],
    ['DELETE', '/api/plugins/:slug/trusted-publishers/:id', false],
    ['POST', '/api/plugins/:slug/deliveries/:id/replay', false],
  ])('%s %s → %s', (method, path, expected) => {
    expect(isCatalogueWrite(method, path)).toBe(expected);
  });
});

describe('mayShare', () => {
  it.each([
    ['public, max-age=60', false, true],
    [null, false, true],
    ['no-cache', false, true],
    ['public, max-age=60', true, false],
    ['private', false, false],
    ['private, no-store', false, false],
    ['no-store', false, false],
    ['public, max-age=60, no-store', false, false],
    ['PUBLIC, Max-Age=60, Private', false, false],
    ['public, private="Set-Cookie"', false, false],
    [' no-store ', false, false],
  ])('Cache-Control %p, sets a cookie %p → %p', (cacheControl, setsCookie, expected) => {
    const { mayShare } = jest.requireActual<typeof import('./response-cache.middleware')>('./response-cache.middleware');
    expect(mayShare(cacheControl, setsCookie)).toBe(expected);
  });
});
