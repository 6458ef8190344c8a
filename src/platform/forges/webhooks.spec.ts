import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectWebhookForge, forgeAdapter } from './adapters';

const fixture = (name: string) => JSON.parse(readFileSync(join(__dirname, '../../../test/fixtures/webhooks', name), 'utf8'));

describe('webhook detection and parsing in the forge adapters', () => {
  it('detects Forgejo, then Gitea, then GitLab, then GitHub (Gitea and Forgejo also send GitHub headers)', () => {
    expect(
      detectWebhookForge({ 'x-forgejo-event': 'release', 'x-gitea-event': 'release', 'x-github-event': 'release' })?.adapter.type,
    ).toBe('forgejo');
    expect(detectWebhookForge({ 'x-gitea-event': 'release', 'x-github-event': 'release', 'x-gitea-delivery': 'd1' })).toMatchObject({
      adapter: { type: 'gitea' },
      envelope: { deliveryId: 'd1' },
    });
    expect(detectWebhookForge({ 'x-gitlab-event': 'Release Hook' })?.adapter.type).toBe('gitlab');
    expect(detectWebhookForge({ 'x-github-event': 'ping' })?.adapter.type).toBe('github');
    expect(detectWebhookForge({ 'content-type': 'application/json' })).toBeNull();
  });

  it.each([
    [
      'github',
      'release',
      'github-release-published.with-assets.json',
      {
        kind: 'release',
        tag: 'v1.2.3',
        assets: expect.arrayContaining([{ name: 'plugin.yaml', url: expect.stringContaining('/plugin.yaml') }]),
      },
    ],
    ['github', 'create', 'github-create-tag.octokit.json', { kind: 'release', tag: 'simple-tag', assets: null }],
    ['github', 'ping', 'github-ping.octokit.json', { kind: 'ping' }],
    [
      'gitlab',
      'Release Hook',
      'gitlab-release-hook.create.json',
      { kind: 'release', tag: 'v1.2.3', assets: [{ name: 'plugin.yaml', url: expect.stringContaining('plugin.yaml') }] },
    ],
    [
      'gitea',
      'release',
      'gitea-release-published.json',
      { kind: 'release', tag: 'v1.2.3', assets: [{ name: 'plugin.yaml', url: expect.stringContaining('plugin.yaml') }] },
    ],
    ['forgejo', 'create', 'gitea-create-tag.json', { kind: 'release', tag: 'v1.2.3', assets: null }],
  ] as const)('%s %s (%s)', (type, event, file, expected) => {
    expect(forgeAdapter(type).parseWebhook(event, fixture(file))).toEqual(expected);
  });

  it('reads the repository URL where each forge puts it', () => {
    expect(forgeAdapter('github').webhookRepositoryUrl(fixture('github-release-published.with-assets.json'))).toBe(
      'https://github.com/Codertocat/Hello-World',
    );
    expect(forgeAdapter('gitlab').webhookRepositoryUrl(fixture('gitlab-release-hook.create.json'))).toBe(
      'https://example.com/gitlab-org/release-webhook-example',
    );
    expect(forgeAdapter('gitea').webhookRepositoryUrl(fixture('gitea-release-published.json'))).toBe(
      'https://gitea.example.com/alice/hello',
    );
  });

  it('ignores a deleted GitLab tag and GitHub release actions that publish nothing', () => {
    expect(
      forgeAdapter('gitlab').parseWebhook('Tag Push Hook', { ref: 'refs/tags/v1', after: '0000000000000000000000000000000000000000' }).kind,
    ).toBe('ignored');
    expect(forgeAdapter('gitlab').parseWebhook('Tag Push Hook', { ref: 'refs/tags/v1', after: 'abc123' })).toEqual({
      kind: 'release',
      tag: 'v1',
      assets: null,
    });
    expect(forgeAdapter('github').parseWebhook('release', { action: 'created', release: { tag_name: 'v1' } }).kind).toBe('ignored');
    expect(forgeAdapter('github').parseWebhook('release', { action: 'published', release: { tag_name: 'v1', draft: true } }).kind).toBe(
      'ignored',
    );
  });

  it('refuses a secret under 32 characters even when the signature matches it', () => {
    const body = Buffer.from('{}');
    const { createHmac } = jest.requireActual<typeof import('node:crypto')>('node:crypto');
    const sign = (secret: string) => createHmac('sha256', secret).update(body).digest('hex');
    expect(forgeAdapter('gitea').verifyWebhook({ 'x-gitea-signature': sign('a'.repeat(32)) }, body, 'a'.repeat(32))).toBe(true);
    expect(forgeAdapter('gitea').verifyWebhook({ 'x-gitea-signature': sign('a'.repeat(31)) }, body, 'a'.repeat(31))).toBe(false);
    expect(forgeAdapter('github').verifyWebhook({ 'x-hub-signature-256': sign('a'.repeat(32)) }, body, 'a'.repeat(32))).toBe(false);
    expect(forgeAdapter('gitlab').verifyWebhook({ 'x-gitlab-token': 'a'.repeat(32) }, body, 'a'.repeat(32))).toBe(true);
  });
});
