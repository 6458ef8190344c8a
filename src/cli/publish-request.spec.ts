import { assetFromArgument, httpsRepositoryUrl } from './publish-request';

describe('httpsRepositoryUrl', () => {
  it.each([
    ['git@github.com:acme/tool.git', 'https://github.com/acme/tool'],
    ['git@gitlab.example.com:group/sub/tool.git', 'https://gitlab.example.com/group/sub/tool'],
    ['ssh://git@codeberg.org/acme/tool.git', 'https://codeberg.org/acme/tool'],
    ['https://github.com/acme/tool.git', 'https://github.com/acme/tool'],
    ['https://user:secret@github.com/acme/tool/', 'https://github.com/acme/tool'],
    ['http://127.0.0.1:8080/acme/tool.git', 'http://127.0.0.1:8080/acme/tool'],
  ])('%s → %s', (remote, url) => {
    expect(httpsRepositoryUrl(remote)).toBe(url);
  });

  it('gives up on what is not a remote URL', () => {
    expect(httpsRepositoryUrl('/srv/git/tool.git')).toBeNull();
    expect(httpsRepositoryUrl('file:///srv/git/tool.git')).toBeNull();
  });
});

describe('assetFromArgument', () => {
  it('splits NAME=URL at the first =', () => {
    expect(assetFromArgument('tool.zip=https://h/d?x=1')).toEqual({ name: 'tool.zip', url: 'https://h/d?x=1' });
  });

  it('refuses a missing name or a URL that is not http(s)', () => {
    expect(() => assetFromArgument('https://h/tool.zip')).toThrow(/NAME=URL/);
    expect(() => assetFromArgument('tool.zip=ftp://h/tool.zip')).toThrow(/not an absolute http\(s\) URL/);
  });
});
