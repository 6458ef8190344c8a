import { randomBytes } from 'node:crypto';
import { DEFAULT_FORGES } from '../../config/forges';
import type { ForgeInstanceConfig } from '../../lib/forge/types';
import { forgeAdapter } from './adapters';
import { composeForges, type StoredForgeInput, webUrlKey } from './forge-registry';
import { openClientSecret, sealClientSecret } from './stored-forge-secret';

const key = randomBytes(32);

function row(name: string, webUrl: string, secret = `${name}-secret`, type = 'gitlab'): StoredForgeInput {
  return {
    name,
    type,
    webUrl,
    apiUrl: `${webUrl}/api/v4`,
    clientId: `${name}-id`,
    clientSecretSealed: sealClientSecret(key, name, secret),
    createdAt: new Date(0),
    createdBy: null,
  };
}

function compose(configured: readonly ForgeInstanceConfig[], rows: StoredForgeInput[]) {
  const warnings: string[] = [];
  const live = composeForges(configured, rows, {
    openSecret: (r) => openClientSecret(key, r.name, r.clientSecretSealed),
    warn: (_key, line) => warnings.push(line),
  });
  return { live, warnings, summary: live.map((e) => `${e.forge.name}:${e.source}:${e.forge.clientSecret ? 'sign-in' : '-'}`) };
}

describe('composeForges', () => {
  it('marks the built-in instances, and appends stored ones with their secrets opened', () => {
    const { live, summary } = compose(DEFAULT_FORGES, [row('corp', 'https://git.corp.example')]);
    expect(summary).toEqual(['github:default:-', 'gitlab:default:-', 'codeberg:default:-', 'corp:stored:sign-in']);
    expect(live[3].forge).toMatchObject({ clientId: 'corp-id', clientSecret: 'corp-secret' });
  });

  it('puts a stored instance in the place of the built-in one with its name or web URL, keeping its OIDC issuer', () => {
    const github = { ...row('github', 'https://github.com', 's', 'github'), apiUrl: 'https://api.github.com' };
    const { live, summary } = compose(DEFAULT_FORGES, [github, row('lab', 'https://GitLab.com/')]);
    expect(summary).toEqual(['github:stored:sign-in', 'lab:stored:sign-in', 'codeberg:default:-']);
    expect(live[0].forge.oidcIssuer).toBe(DEFAULT_FORGES[0].oidcIssuer);
  });

  it('lets the FORGES configuration win over a stored instance with its name or web URL', () => {
    const configured: ForgeInstanceConfig[] = [
      { name: 'corp', type: 'gitlab', webUrl: 'https://git.corp.example', apiUrl: 'https://git.corp.example/api/v4' },
    ];
    const { summary, warnings } = compose(configured, [
      row('corp', 'https://elsewhere.example'),
      row('other', 'https://git.corp.example/'),
    ]);
    expect(summary).toEqual(['corp:configuration:-']);
    expect(warnings).toHaveLength(2);
  });

  it('keeps an instance whose secret cannot be opened, without sign-in, and says so', () => {
    const moved = { ...row('corp', 'https://git.corp.example'), clientSecretSealed: sealClientSecret(key, 'elsewhere', 'x') };
    const { live, warnings } = compose([], [moved]);
    expect(live[0].forge.clientId).toBeUndefined();
    expect(live[0].forge.clientSecret).toBeUndefined();
    expect(warnings[0]).toMatch(/cannot be decrypted/);
  });
});

describe('webUrlKey', () => {
  it('ignores case of scheme and host and a trailing slash', () => {
    expect(webUrlKey('HTTPS://Git.Example/Sub/')).toBe(webUrlKey('https://git.example/sub'));
    expect(webUrlKey('https://git.example/a')).not.toBe(webUrlKey('https://git.example/b'));
  });
});

describe('defaultApiUrl', () => {
  it.each([
    ['github', 'https://github.com', 'https://api.github.com'],
    ['github', 'https://ghe.corp.example', 'https://ghe.corp.example/api/v3'],
    ['gitlab', 'https://git.corp.example/gitlab', 'https://git.corp.example/gitlab/api/v4'],
    ['gitea', 'https://tea.example', 'https://tea.example/api/v1'],
    ['forgejo', 'https://codeberg.org', 'https://codeberg.org/api/v1'],
  ] as const)('%s at %s has its API at %s', (type, webUrl, apiUrl) => {
    expect(forgeAdapter(type).defaultApiUrl(webUrl)).toBe(apiUrl);
  });
});
