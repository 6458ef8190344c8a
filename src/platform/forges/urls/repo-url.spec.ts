import type { ForgeInstanceConfig } from '../../../lib/forge/types';
import { parseRepoUrl } from './index';

const FORGES: readonly ForgeInstanceConfig[] = [
  { name: 'github', type: 'github', webUrl: 'https://github.com', apiUrl: 'https://api.github.com' },
  { name: 'gitlab', type: 'gitlab', webUrl: 'https://gitlab.com', apiUrl: 'https://gitlab.com/api/v4' },
  { name: 'codeberg', type: 'gitea', webUrl: 'https://codeberg.org', apiUrl: 'https://codeberg.org/api/v1' },
];

function identityOf(input: string): string {
  const result = parseRepoUrl(input);
  if (!result.ok) throw new Error(`refused ${input}: ${result.message}`);
  return result.identity;
}

function messageOf(input: string, forges?: readonly ForgeInstanceConfig[]): string {
  const result = parseRepoUrl(input, { forges });
  if (result.ok) throw new Error(`accepted ${input}`);
  return result.message;
}

describe('parseRepoUrl identity', () => {
  it.each([
    'https://github.com/Acme/Widget',
    'http://github.com/acme/widget',
    'https://www.github.com/acme/widget',
    'https://GITHUB.COM/acme/widget',
    'https://github.com/acme/widget/',
    'https://github.com/acme/widget//',
    'https://github.com/acme/widget.git',
    'https://github.com/acme/widget.GIT/',
    'https://github.com:443/acme/widget',
    'http://github.com:80/acme/widget',
    'https://github.com/acme/widget?tab=readme',
    'https://github.com/acme/widget#readme',
    'https://github.com./acme/widget',
    '  https://github.com/acme/widget  ',
    'https://github.com/acme/%77idget',
  ])('normalizes %s to github.com/acme/widget', (input) => {
    expect(identityOf(input)).toBe('github.com/acme/widget');
  });

  it('keeps a non-default port and nested GitLab groups', () => {
    expect(identityOf('https://git.example.com:8443/Group/Sub/Project.git')).toBe('git.example.com:8443/group/sub/project');
  });

  it('keeps the case of the path in the cleaned url, and drops query, fragment and .git', () => {
    const result = parseRepoUrl('https://www.GitHub.com/Acme/Widget.git/?x=1#y');
    expect(result).toEqual({ ok: true, url: new URL('https://www.github.com/Acme/Widget'), identity: 'github.com/acme/widget' });
  });

  it('keeps the instance path of a forge that lives under a path', () => {
    expect(identityOf('https://host.example/gitlab/group/project')).toBe('host.example/gitlab/group/project');
  });

  it('tells an internationalized host by its punycode form', () => {
    expect(identityOf('https://bücher.example/a/b')).toBe('xn--bcher-kva.example/a/b');
  });
});

describe('parseRepoUrl refusals', () => {
  it.each([
    ['', /empty/],
    ['   ', /empty/],
    ['github.com/acme/widget', /absolute http\(s\) URL/],
    ['//github.com/acme/widget', /absolute http\(s\) URL/],
    ['ftp://github.com/acme/widget', /http or https, not ftp:/],
    ['git@github.com:acme/widget.git', /absolute http\(s\) URL/],
    ['ssh://git@github.com/acme/widget', /not ssh:/],
    ['javascript:alert(1)//github.com/a/b', /not javascript:/],
    ['JAVASCRIPT://github.com/a/b', /not javascript:/],
    ['data:text/html,<b>x</b>', /not data:/],
    ['file:///etc/passwd', /not file:/],
    ['https:github.com/acme/widget', /absolute http\(s\) URL/],
    ['https:/github.com/acme/widget', /absolute http\(s\) URL/],
    ['https:\\\\github.com\\acme\\widget', /backslash/],
    ['https://github.com\\acme\\widget', /backslash/],
    ['https://user:pass@github.com/acme/widget', /credentials/],
    ['https://token@github.com/acme/widget', /credentials/],
    ['https://github.com', /owner and a repository/],
    ['https://github.com/', /owner and a repository/],
    ['https://github.com/acme', /owner and a repository/],
    ['https://github.com/acme/.git', /owner and a repository/],
    ['https://github.com/?owner=acme&repo=widget', /owner and a repository/],
    ['https://github.com?acme/widget', /owner and a repository/],
    ['https://github.com#/acme/widget', /owner and a repository/],
    ['https://github.com/acme//widget', /empty segment/],
    ['https://github.com/acme/../widget/x', /"\." or "\.\."/],
    ['https://github.com/acme/%2e%2e/widget/x', /"\." or "\.\."/],
    ['https://github.com/acme/./widget', /"\." or "\.\."/],
    ['https://github.com/acme%2Fwidget/x', /characters/],
    ['https://github.com/acme/wid%00get', /characters/],
    ['https://github.com/acme/wid%zzget', /percent-encoding/],
    ['https://github.com/acme/wid get', /whitespace/],
    ['https://github.com/acme/wid\tget', /whitespace/],
    ['https://github.com/acme/wid\nget', /whitespace/],
    ['https://github.com/acme/<script>', /characters/],
    ['https://github.com/acme/wid"get', /characters/],
    ['https://gitlab.com/group/project/-/tree/main', /inside a repository page/],
    ['https://exa mple.com/a/b', /whitespace/],
    ['https://[::1/a/b', /not a valid URL/],
  ])('refuses %j', (input, message) => {
    expect(messageOf(input)).toMatch(message);
  });

  it('refuses an overlong URL', () => {
    expect(messageOf(`https://github.com/acme/${'w'.repeat(3000)}`)).toMatch(/longer than 2048/);
  });

  it('refuses non-string input without throwing', () => {
    expect(parseRepoUrl(42 as unknown as string)).toEqual({ ok: false, message: 'repository URL must be a string' });
  });
});

describe('parseRepoUrl with configured forges', () => {
  it('accepts owner/repo on GitHub and Gitea, nested groups on GitLab', () => {
    expect(parseRepoUrl('https://github.com/acme/widget', { forges: FORGES }).ok).toBe(true);
    expect(parseRepoUrl('https://codeberg.org/acme/widget', { forges: FORGES }).ok).toBe(true);
    expect(parseRepoUrl('https://gitlab.com/acme/tools/widget', { forges: FORGES }).ok).toBe(true);
  });

  it('refuses a page inside a GitHub or Gitea repository', () => {
    expect(messageOf('https://github.com/acme/widget/tree/main', FORGES)).toMatch(/on github: .*owner\/repo/);
    expect(messageOf('https://codeberg.org/acme/widget/src/branch/main', FORGES)).toMatch(/on codeberg/);
  });

  it('leaves hosts no instance covers to the generic rules', () => {
    expect(parseRepoUrl('https://git.sr.ht/~acme/widget', { forges: FORGES }).ok).toBe(true);
    expect(parseRepoUrl('https://example.com/a/b/c/d', { forges: FORGES }).ok).toBe(true);
  });
});
