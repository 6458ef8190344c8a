import type { CiIdentity } from '../../platform/forges/forge-adapter';
import { matchesIdentity, refMatches } from './publisher-match';

const identity: CiIdentity = {
  repositoryId: '1',
  repository: 'Acme/Tool',
  workflow: '.github/workflows/release.yml',
  ref: 'refs/tags/v1.2.0',
  environment: 'Release',
};
const base = { repositoryId: '1', repositoryPath: 'acme/tool', workflow: null, refPattern: null, environment: null };

describe('matching a CI identity against a publisher', () => {
  it('needs the repository id and the path, and each narrowing claim that is set', () => {
    expect(matchesIdentity(base, identity)).toBe(true);
    expect(matchesIdentity({ ...base, repositoryId: '2' }, identity)).toBe(false);
    expect(matchesIdentity({ ...base, repositoryPath: 'acme/other' }, identity)).toBe(false);
    expect(matchesIdentity({ ...base, workflow: '.github/workflows/release.yml' }, identity)).toBe(true);
    expect(matchesIdentity({ ...base, workflow: '.github/workflows/ci.yml' }, identity)).toBe(false);
    expect(matchesIdentity({ ...base, refPattern: 'refs/tags/v*' }, identity)).toBe(true);
    expect(matchesIdentity({ ...base, refPattern: 'refs/heads/*' }, identity)).toBe(false);
    expect(matchesIdentity({ ...base, environment: 'release' }, identity)).toBe(true);
    expect(matchesIdentity({ ...base, environment: 'staging' }, identity)).toBe(false);
    expect(matchesIdentity({ ...base, environment: 'release' }, { ...identity, environment: null })).toBe(false);
  });

  it('reads ref patterns with * as the only wildcard', () => {
    expect(refMatches('refs/tags/v*', 'refs/tags/v1.0.0')).toBe(true);
    expect(refMatches('refs/heads/main', 'refs/heads/main')).toBe(true);
    expect(refMatches('refs/heads/main', 'refs/heads/main2')).toBe(false);
    expect(refMatches('refs/tags/v1.?.0', 'refs/tags/v1.2.0')).toBe(false);
    expect(refMatches('refs/tags/*', null)).toBe(false);
    expect(refMatches('refs/*/release', 'refs/heads/x/release')).toBe(true);
  });
});
