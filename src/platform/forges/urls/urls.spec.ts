import type { ForgeEndpoints } from './index';
import { blobUrl, checkRepoFilePath, checkTag, fileContentsApiRequest, ForgeUrlError, rawFileUrl, repositoryApiUrl } from './index';

const github: ForgeEndpoints = { type: 'github', webUrl: 'https://github.com', apiUrl: 'https://api.github.com' };
const ghe: ForgeEndpoints = { type: 'github', webUrl: 'https://ghe.example/', apiUrl: 'https://ghe.example/api/v3/' };
const gitlab: ForgeEndpoints = { type: 'gitlab', webUrl: 'https://host.example/gitlab', apiUrl: 'https://host.example/gitlab/api/v4' };
const gitea: ForgeEndpoints = { type: 'gitea', webUrl: 'https://codeberg.org', apiUrl: 'https://codeberg.org/api/v1' };

describe('rawFileUrl and blobUrl', () => {
  it('build GitHub and GitHub Enterprise URLs', () => {
    expect(rawFileUrl(github, 'acme/widget', 'v1.2.0', 'docs/shot.png')).toBe('https://github.com/acme/widget/raw/v1.2.0/docs/shot.png');
    expect(blobUrl(github, 'acme/widget', 'v1.2.0', 'docs/USAGE.md')).toBe('https://github.com/acme/widget/blob/v1.2.0/docs/USAGE.md');
    expect(rawFileUrl(ghe, 'acme/widget', 'v1', 'a.png')).toBe('https://ghe.example/acme/widget/raw/v1/a.png');
  });

  it('build GitLab URLs under an instance path, with nested groups', () => {
    expect(rawFileUrl(gitlab, 'group/sub/project', 'v1.0.0', 'img/a.png')).toBe(
      'https://host.example/gitlab/group/sub/project/-/raw/v1.0.0/img/a.png',
    );
    expect(blobUrl(gitlab, 'group/sub/project', 'v1.0.0', 'README.md')).toBe(
      'https://host.example/gitlab/group/sub/project/-/blob/v1.0.0/README.md',
    );
  });

  it('build Gitea and Forgejo URLs', () => {
    expect(rawFileUrl(gitea, 'acme/widget', 'v2.0.0', 'a b/ü.png')).toBe(
      'https://codeberg.org/acme/widget/raw/tag/v2.0.0/a%20b/%C3%BC.png',
    );
    expect(blobUrl(gitea, 'acme/widget', 'v2.0.0', 'README.md')).toBe('https://codeberg.org/acme/widget/src/tag/v2.0.0/README.md');
  });

  it('encode every segment of the file path and keep slashes in tags', () => {
    expect(rawFileUrl(github, 'acme/widget', 'release/1.0+build', 'x/#?%&=.png')).toBe(
      'https://github.com/acme/widget/raw/release/1.0%2Bbuild/x/%23%3F%25%26%3D.png',
    );
  });
});

describe('API URLs', () => {
  it('build repository record URLs', () => {
    expect(repositoryApiUrl(github, 'acme/widget')).toBe('https://api.github.com/repos/acme/widget');
    expect(repositoryApiUrl(ghe, 'acme/widget')).toBe('https://ghe.example/api/v3/repos/acme/widget');
    expect(repositoryApiUrl(gitlab, 'group/sub/my.project')).toBe('https://host.example/gitlab/api/v4/projects/group%2Fsub%2Fmy%2Eproject');
    expect(repositoryApiUrl(gitea, 'acme/widget')).toBe('https://codeberg.org/api/v1/repos/acme/widget');
  });

  it('build file contents requests at a tag', () => {
    expect(fileContentsApiRequest(github, 'acme/widget', 'v1.0.0', 'docs/README.md')).toEqual({
      url: 'https://api.github.com/repos/acme/widget/contents/docs/README.md?ref=v1.0.0',
      headers: { Accept: 'application/vnd.github.raw+json' },
    });
    expect(fileContentsApiRequest(gitlab, 'group/project', 'release/1.0', 'docs/README.md')).toEqual({
      url: 'https://host.example/gitlab/api/v4/projects/group%2Fproject/repository/files/docs%2FREADME%2Emd/raw?ref=release%2F1.0',
      headers: {},
    });
    expect(fileContentsApiRequest(gitea, 'acme/widget', 'v1.0.0+b', 'README.md')).toEqual({
      url: 'https://codeberg.org/api/v1/repos/acme/widget/raw/README.md?ref=v1.0.0%2Bb',
      headers: {},
    });
  });
});

describe('hostile inputs', () => {
  function codeOf(build: () => unknown): string {
    try {
      build();
    } catch (error) {
      expect(error).toBeInstanceOf(ForgeUrlError);
      return (error as ForgeUrlError).code;
    }
    throw new Error('built a URL');
  }

  it.each([
    '../secret',
    'docs/../../secret',
    './README.md',
    'docs//a.png',
    '/etc/passwd',
    'docs\\..\\a',
    'a\u0000b',
    'a\nb',
    'https://evil.example/x.png',
    'javascript:alert(1)',
    '//evil.example/x',
    '',
    'docs/',
    'x'.repeat(2000),
  ])('refuses the file path %j', (path) => {
    expect(checkRepoFilePath(path).ok).toBe(false);
    expect(codeOf(() => rawFileUrl(github, 'acme/widget', 'v1', path))).toBe('INVALID_FILE_PATH');
    expect(codeOf(() => fileContentsApiRequest(gitlab, 'g/p', 'v1', path))).toBe('INVALID_FILE_PATH');
  });

  it.each([
    '',
    '..',
    'v1/../../x',
    'v1..2',
    '/v1',
    'v1/',
    'v1//x',
    '.hidden',
    'v1.',
    'v1.lock',
    'v1 2',
    'v1?x=1',
    'v1#x',
    'v1%2F..',
    'v1:x',
    'v1\\x',
    'v1@{0}',
    'v1~1',
    'v1^',
    'v1*',
    'v1\u0000',
    'x'.repeat(300),
  ])('refuses the tag %j', (tag) => {
    expect(checkTag(tag).ok).toBe(false);
    expect(codeOf(() => blobUrl(gitea, 'acme/widget', tag, 'README.md'))).toBe('INVALID_REF');
  });

  it.each(['v1.2.3', '1.2.3-rc.1+build.5', 'release/1.0', 'plugin_v1'])('accepts the tag %j', (tag) => {
    expect(checkTag(tag)).toEqual({ ok: true, value: tag });
  });

  it.each([
    [github, 'acme'],
    [github, 'acme/widget/extra'],
    [gitea, 'a/b/c'],
    [gitlab, 'project'],
    [gitlab, 'group/-/project'],
    [github, 'acme/../widget'],
    [github, 'acme/wid%2Fget'],
    [github, 'acme/<x>'],
    [github, ''],
  ] as const)('refuses the repository path %j', (forge, repoPath) => {
    expect(codeOf(() => repositoryApiUrl(forge, repoPath))).toBe('INVALID_REPO_PATH');
    expect(codeOf(() => rawFileUrl(forge, repoPath, 'v1', 'a.md'))).toBe('INVALID_REPO_PATH');
  });
});
