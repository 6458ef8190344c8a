import { forgeAdapter } from './adapters';

/** Claim sets shaped as each forge's CI documents them (trimmed to what the mapping reads). */
describe('CI identity from OIDC ID token claims', () => {
  it('reads GitHub Actions claims, with the workflow relative to its repository', () => {
    const claims = {
      repository_id: '123456',
      repository: 'Acme/Tool',
      job_workflow_ref: 'Acme/Tool/.github/workflows/release.yml@refs/tags/v1.0.0',
      ref: 'refs/tags/v1.0.0',
      environment: 'release',
    };
    expect(forgeAdapter('github').ciIdentity(claims)).toEqual({
      repositoryId: '123456',
      repository: 'Acme/Tool',
      workflow: '.github/workflows/release.yml',
      ref: 'refs/tags/v1.0.0',
      environment: 'release',
    });
  });

  it('names a reusable workflow of another repository with that repository', () => {
    const identity = forgeAdapter('github').ciIdentity({
      repository_id: 1,
      repository: 'a/b',
      job_workflow_ref: 'org/shared/.github/workflows/pub.yml@refs/heads/main',
    });
    expect(identity).toMatchObject({ repositoryId: '1', workflow: 'org/shared/.github/workflows/pub.yml', ref: null, environment: null });
  });

  it('maps GitHub-compatible claims for Gitea and Forgejo Actions', () => {
    const claims = {
      repository_id: '9',
      repository: 'o/r',
      job_workflow_ref: 'o/r/.forgejo/workflows/x.yml@refs/tags/v2',
      ref: 'refs/tags/v2',
    };
    for (const type of ['gitea', 'forgejo'] as const)
      expect(forgeAdapter(type).ciIdentity(claims)).toMatchObject({ repositoryId: '9', workflow: '.forgejo/workflows/x.yml' });
  });

  it('reads GitLab CI claims: project id and path, CI config path, full ref from ref and ref_type', () => {
    const claims = {
      project_id: '42',
      project_path: 'group/sub/project',
      ci_config_ref_uri: 'gitlab.com/group/sub/project//.gitlab-ci.yml@refs/tags/v1.2.0',
      ref: 'v1.2.0',
      ref_type: 'tag',
      environment: 'production',
    };
    expect(forgeAdapter('gitlab').ciIdentity(claims)).toEqual({
      repositoryId: '42',
      repository: 'group/sub/project',
      workflow: '.gitlab-ci.yml',
      ref: 'refs/tags/v1.2.0',
      environment: 'production',
    });
    expect(forgeAdapter('gitlab').ciIdentity({ project_id: 1, project_path: 'g/p', ref: 'main', ref_type: 'branch' })).toMatchObject({
      ref: 'refs/heads/main',
      workflow: null,
    });
    expect(
      forgeAdapter('gitlab').ciIdentity({
        project_id: 1,
        project_path: 'g/p',
        ci_config_ref_uri: 'gitlab.com/other/ci//p.yml@refs/heads/main',
      }),
    ).toMatchObject({
      workflow: 'gitlab.com/other/ci//p.yml',
    });
  });

  it('answers null when the claims name no repository', () => {
    expect(forgeAdapter('github').ciIdentity({ repository: 'o/r' })).toBeNull();
    expect(forgeAdapter('gitlab').ciIdentity({ project_id: '1' })).toBeNull();
    expect(forgeAdapter('github').ciIdentity({ repository_id: 1.5, repository: 'o/r' })).toBeNull();
  });

  it('reads the immutable repository id from a repository record', () => {
    expect(forgeAdapter('github').repositoryId({ id: 77 })).toBe('77');
    expect(forgeAdapter('gitlab').repositoryId({ id: '77' })).toBeNull();
  });
});
