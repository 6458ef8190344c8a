import type { ForgeInstanceConfig } from '../../../lib/forge/types';
import { forgeForUrl } from './index';

const github: ForgeInstanceConfig = { name: 'github', type: 'github', webUrl: 'https://github.com', apiUrl: 'https://api.github.com' };
const gitlab: ForgeInstanceConfig = { name: 'gitlab', type: 'gitlab', webUrl: 'https://gitlab.com', apiUrl: 'https://gitlab.com/api/v4' };
const codeberg: ForgeInstanceConfig = {
  name: 'codeberg',
  type: 'gitea',
  webUrl: 'https://codeberg.org',
  apiUrl: 'https://codeberg.org/api/v1',
};
const hostRoot: ForgeInstanceConfig = {
  name: 'root',
  type: 'gitea',
  webUrl: 'https://host.example',
  apiUrl: 'https://host.example/api/v1',
};
const hostGitlab: ForgeInstanceConfig = {
  name: 'corp-gitlab',
  type: 'gitlab',
  webUrl: 'https://host.example/gitlab',
  apiUrl: 'https://host.example/gitlab/api/v4',
};
const ghe: ForgeInstanceConfig = {
  name: 'ghe',
  type: 'github',
  webUrl: 'https://ghe.example:8443',
  apiUrl: 'https://ghe.example:8443/api/v3',
};
const FORGES = [github, gitlab, codeberg, hostRoot, hostGitlab, ghe];

describe('forgeForUrl', () => {
  it.each([
    ['https://github.com/acme/widget', github, 'acme/widget'],
    ['https://www.github.com/Acme/Widget.git/', github, 'Acme/Widget'],
    ['http://GITHUB.com/acme/widget?tab=readme#top', github, 'acme/widget'],
    ['https://gitlab.com/acme/tools/widget', gitlab, 'acme/tools/widget'],
    ['https://gitlab.com/a/b/c/d/e.git', gitlab, 'a/b/c/d/e'],
    ['https://codeberg.org/acme/widget', codeberg, 'acme/widget'],
    ['https://ghe.example:8443/acme/widget', ghe, 'acme/widget'],
  ])('places %s', (url, forge, repoPath) => {
    expect(forgeForUrl(url, FORGES)).toEqual({ forge, repoPath });
  });

  it('accepts a URL object', () => {
    expect(forgeForUrl(new URL('https://github.com/acme/widget'), FORGES)).toEqual({ forge: github, repoPath: 'acme/widget' });
  });

  it('picks the instance under a path over the one at the host root (longest prefix)', () => {
    expect(forgeForUrl('https://host.example/gitlab/group/sub/project', FORGES)).toEqual({
      forge: hostGitlab,
      repoPath: 'group/sub/project',
    });
    expect(forgeForUrl('https://host.example/GitLab/group/project', FORGES)?.forge).toBe(hostGitlab);
  });

  it('respects segment boundaries: /gitlabx is not under /gitlab', () => {
    expect(forgeForUrl('https://host.example/gitlabx/widget', FORGES)).toEqual({ forge: hostRoot, repoPath: 'gitlabx/widget' });
    expect(forgeForUrl('https://host.example/gitlabx/group/project', [hostGitlab])).toBeNull();
  });

  it('does not depend on the order of the instances', () => {
    expect(forgeForUrl('https://host.example/gitlab/g/p', [hostGitlab, hostRoot])?.forge).toBe(hostGitlab);
    expect(forgeForUrl('https://host.example/gitlab/g/p', [hostRoot, hostGitlab])?.forge).toBe(hostGitlab);
  });

  it('answers null for hosts no instance covers', () => {
    expect(forgeForUrl('https://example.com/acme/widget', FORGES)).toBeNull();
    expect(forgeForUrl('https://github.com.evil.example/acme/widget', FORGES)).toBeNull();
    expect(forgeForUrl('https://evilgithub.com/acme/widget', FORGES)).toBeNull();
    expect(forgeForUrl('https://ghe.example/acme/widget', FORGES)).toBeNull();
    expect(forgeForUrl('https://github.com/acme/widget', [])).toBeNull();
  });

  it('answers null for URLs that are not a repository of the instance', () => {
    expect(forgeForUrl('https://github.com/acme/widget/tree/main', FORGES)).toBeNull();
    expect(forgeForUrl('https://gitlab.com/acme/widget/-/tree/main', FORGES)).toBeNull();
    expect(forgeForUrl('https://host.example/gitlab/project', FORGES)).toBeNull();
    expect(forgeForUrl('https://user@github.com/acme/widget', FORGES)).toBeNull();
    expect(forgeForUrl('ftp://github.com/acme/widget', FORGES)).toBeNull();
    expect(forgeForUrl('not a url', FORGES)).toBeNull();
  });

  it('skips an instance whose webUrl does not parse', () => {
    const broken: ForgeInstanceConfig = { ...github, name: 'broken', webUrl: 'not a url' };
    expect(forgeForUrl('https://github.com/acme/widget', [broken, github])?.forge).toBe(github);
  });
});
