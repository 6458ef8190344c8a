import { callbackUrl, toProviderDto } from './providers.mapper';

describe('toProviderDto', () => {
  it('copies only the public face of an instance and labels it by family and name', () => {
    const dto = toProviderDto(
      {
        name: 'work',
        type: 'forgejo',
        webUrl: 'https://git.work.example',
        apiUrl: 'https://git.work.example/api/v1',
        clientId: 'id',
        clientSecret: 'secret',
        token: 'tok',
      },
      'https://registry.example',
    );
    expect(dto).toEqual({
      name: 'work',
      type: 'forgejo',
      webUrl: 'https://git.work.example',
      label: 'Forgejo (work)',
      loginUrl: '/auth/work/login',
      callbackUrl: 'https://registry.example/auth/work/callback',
    });
    expect(JSON.stringify(dto)).not.toMatch(/secret|tok"|"id"/);
  });

  it('says just the family when the instance is named after it', () => {
    expect(
      toProviderDto({ name: 'gitlab', type: 'gitlab', webUrl: 'https://gitlab.com', apiUrl: 'https://gitlab.com/api/v4' }, 'http://x')
        .label,
    ).toBe('GitLab');
    expect(callbackUrl('http://x', 'gitlab')).toBe('http://x/auth/gitlab/callback');
  });
});
