import type OAuth2Strategy from 'passport-oauth2';
import { AssetFetchError, policyAgents } from '../../../common/fetch';
import { fixedLookup, type LoopbackServer, startHttpServer, startRawServer } from '../../../common/fetch/testing/loopback-servers';
import type { ForgeInstanceConfig } from '../../../config/config.types';
import type { CookieStateStore } from './oauth-state-store';
import { strategyFor } from './strategies';

type TokenResult = { error: unknown; accessToken?: string };

interface OAuth2Client {
  getOAuthAccessToken(code: string, params: Record<string, string>, callback: (error: unknown, accessToken?: string) => void): void;
}

function exchange(strategy: OAuth2Strategy): Promise<TokenResult> {
  const client = (strategy as unknown as { _oauth2: OAuth2Client })._oauth2;
  return new Promise((resolve) =>
    client.getOAuthAccessToken(
      'the-code',
      { grant_type: 'authorization_code', redirect_uri: 'https://registry.test/auth/corp/callback' },
      (error, accessToken) => resolve({ error, accessToken }),
    ),
  );
}

function profile(strategy: OAuth2Strategy): Promise<unknown> {
  return new Promise((resolve) => strategy.userProfile('a-token', (error) => resolve(error)));
}

/** The oauth error passport-oauth2 hands back: the agent's refusal, possibly wrapped. */
function refusal(error: unknown): AssetFetchError {
  const inner = error instanceof AssetFetchError ? error : (error as { oauthError?: unknown })?.oauthError;
  if (!(inner instanceof AssetFetchError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return inner;
}

const stateStore = {} as CookieStateStore;
const verify = () => undefined;

function forgeAt(webUrl: string, type: ForgeInstanceConfig['type'] = 'gitea'): ForgeInstanceConfig {
  return { name: 'corp', type, webUrl, apiUrl: `${webUrl}/api/v1`, clientId: 'client-id', clientSecret: 'the-client-secret' };
}

describe('OAuth token exchange and profile read under the fetch policy', () => {
  let forge: LoopbackServer;
  let canary: LoopbackServer;
  let bodies: string[];
  let connections: number;

  beforeAll(async () => {
    forge = await startHttpServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        bodies.push(body);
        response.setHeader('content-type', 'application/json');
        response.end(
          request.url?.startsWith('/login/oauth/access_token')
            ? JSON.stringify({ access_token: 'issued', token_type: 'bearer' })
            : JSON.stringify({ id: 7, login: 'ada' }),
        );
      });
    });
    canary = await startRawServer((socket) => {
      connections += 1;
      socket.destroy();
    });
  });

  beforeEach(() => {
    bodies = [];
    connections = 0;
  });

  afterAll(async () => {
    await forge.close();
    await canary.close();
  });

  it.each([
    ['a metadata address', '169.254.169.254', /cloud metadata/],
    ['loopback', '127.0.0.1', /loopback/],
    ['a private address', '10.1.2.3', /private/],
  ])(
    'refuses a token exchange with a host that now resolves to %s (not allow-listed): the secret is never sent',
    async (_label, address, kind) => {
      const lookup = fixedLookup(address);
      const agents = policyAgents({ allowHosts: [], lookup });
      const strategy = strategyFor(
        forgeAt(`https://forge.example.test:${canary.port}`),
        'https://registry.test/auth/corp/callback',
        stateStore,
        verify,
        agents,
      );
      const result = await exchange(strategy);
      expect(result.accessToken).toBeUndefined();
      const error = refusal(result.error);
      expect(error.reason).toBe('refused-address');
      expect(error.message).toMatch(kind);
      expect(error.message).not.toContain(address);
      expect(lookup.hostnames).toEqual(['forge.example.test']);
      expect(connections).toBe(0);
    },
  );

  it('refuses a literal metadata address without asking DNS, and the profile read too (GitHub strategy)', async () => {
    const lookup = fixedLookup('127.0.0.1');
    const agents = policyAgents({ allowHosts: [], lookup });
    const strategy = strategyFor(
      forgeAt('https://169.254.169.254', 'github'),
      'https://registry.test/auth/corp/callback',
      stateStore,
      verify,
      agents,
    );
    expect(refusal((await exchange(strategy)).error).message).toMatch(/cloud metadata/);
    const profileError = await profile(strategy);
    expect(profileError).toBeInstanceOf(Error);
    expect(lookup.hostnames).toEqual([]);
  });

  it('refuses plain http to a host that is not allow-listed', async () => {
    const lookup = fixedLookup('93.184.215.14');
    const agents = policyAgents({ allowHosts: [], lookup });
    const strategy = strategyFor(
      forgeAt(`http://forge.example.test:${forge.port}`),
      'https://registry.test/auth/corp/callback',
      stateStore,
      verify,
      agents,
    );
    expect(refusal((await exchange(strategy)).error).reason).toBe('refused-scheme');
    expect(bodies).toEqual([]);
  });

  it('exchanges the code with an allow-listed host on a private address, through the vetted address only', async () => {
    const lookup = fixedLookup('127.0.0.1');
    const agents = policyAgents({ allowHosts: ['forge.example.test'], lookup });
    const strategy = strategyFor(
      forgeAt(`http://forge.example.test:${forge.port}`),
      'https://registry.test/auth/corp/callback',
      stateStore,
      verify,
      agents,
    );
    const result = await exchange(strategy);
    expect(result.error).toBeNull();
    expect(result.accessToken).toBe('issued');
    expect(bodies).toHaveLength(1);
    expect(new URLSearchParams(bodies[0]).get('client_secret')).toBe('the-client-secret');
    expect(await profile(strategy)).toBeNull();
    expect(lookup.hostnames).toEqual(['forge.example.test', 'forge.example.test']);
    agents.http.destroy();
  });
});
