import { FORGE_TYPES } from '../../lib/forge/types';
import { forgeAdapter } from './adapters';

describe('forge adapters', () => {
  it('has one adapter per forge type, each naming its own type', () => {
    for (const type of FORGE_TYPES) expect(forgeAdapter(type).type).toBe(type);
  });

  it.each([
    ['github', { permissions: { admin: true, maintain: false, push: true } }, true],
    ['github', { permissions: { admin: false, maintain: true, push: true } }, true],
    ['github', { permissions: { admin: false, maintain: false, push: true } }, false],
    ['github', {}, false],
    ['gitlab', { permissions: { project_access: { access_level: 40 }, group_access: null } }, true],
    ['gitlab', { permissions: { project_access: null, group_access: { access_level: 50 } } }, true],
    ['gitlab', { permissions: { project_access: { access_level: 30 }, group_access: { access_level: 20 } } }, false],
    ['gitlab', { permissions: { project_access: { access_level: '50' } } }, false],
    ['gitea', { permissions: { admin: true, push: true } }, true],
    ['gitea', { permissions: { admin: false, push: true } }, false],
    ['forgejo', { permissions: { admin: true } }, true],
    ['forgejo', null, false],
  ] as const)('%s: %j administers = %s', (type, document, expected) => {
    expect(forgeAdapter(type).canAdminister(document)).toBe(expected);
  });

  it('builds the same URLs for Forgejo as for Gitea', () => {
    const at = {
      webRoot: 'https://f.example',
      apiRoot: 'https://f.example/api/v1',
      rawRepoPath: 'o/r',
      repoPath: 'o/r',
      rawTag: 'v1',
      tag: 'v1',
      rawFilePath: 'a.md',
      filePath: 'a.md',
    };
    expect(forgeAdapter('forgejo').rawFileUrl(at)).toBe(forgeAdapter('gitea').rawFileUrl(at));
    expect(forgeAdapter('forgejo').fileContentsApiRequest(at)).toEqual(forgeAdapter('gitea').fileContentsApiRequest(at));
  });
});

describe('provider stats from each forge', () => {
  it.each([
    [
      'github',
      {
        stargazers_count: 10,
        forks_count: 2,
        subscribers_count: 3,
        watchers_count: 10,
        pushed_at: '2026-01-02T03:04:05Z',
        homepage: 'https://x.test',
      },
      { stars: 10, forks: 2, watchers: 3, lastPushAt: Date.UTC(2026, 0, 2, 3, 4, 5), homepage: 'https://x.test' },
    ],
    [
      'gitlab',
      { star_count: 7, forks_count: 1, last_activity_at: '2026-01-02T03:04:05.000Z' },
      { stars: 7, forks: 1, watchers: null, lastPushAt: Date.UTC(2026, 0, 2, 3, 4, 5), homepage: null },
    ],
    [
      'gitea',
      { stars_count: 4, forks_count: 0, watchers_count: 2, updated_at: '2026-01-02T03:04:05+00:00', website: '' },
      { stars: 4, forks: 0, watchers: 2, lastPushAt: Date.UTC(2026, 0, 2, 3, 4, 5), homepage: null },
    ],
  ] as const)('%s', (type, document, stats) => {
    expect(forgeAdapter(type).providerStats(document)).toEqual(stats);
  });
});

describe("a repository's id and current path in each forge's record", () => {
  it.each([
    ['github', { id: 1015, full_name: 'acme/tool' }, '1015', 'acme/tool'],
    ['gitlab', { id: 77, path: 'proj', path_with_namespace: 'group/sub/proj' }, '77', 'group/sub/proj'],
    ['gitea', { id: 9, full_name: 'team/thing' }, '9', 'team/thing'],
    ['forgejo', { id: 9, full_name: 'team/thing' }, '9', 'team/thing'],
    ['github', { id: '1015', full_name: '' }, null, null],
    ['github', { id: 2 ** 60 }, null, null],
  ] as const)('%s: %j', (type, document, id, path) => {
    expect(forgeAdapter(type).repositoryId(document)).toBe(id);
    expect(forgeAdapter(type).repositoryPath(document)).toBe(path);
  });
});
