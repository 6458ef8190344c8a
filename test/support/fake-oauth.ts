import { randomBytes } from 'node:crypto';
import type { FakeForge } from './fake-forge';

export type OAuthForgeType = 'github' | 'gitlab' | 'gitea';

export interface FakeForgeUser {
  id: number;
  login: string;
  email?: string;
  avatarUrl?: string;
}

/** Paths each forge type uses, relative to its web and API roots on the fake forge. */
export const OAUTH_LAYOUT: Record<OAuthForgeType, { api: string; authorize: string; token: string }> = {
  github: { api: '/api/v3', authorize: '/login/oauth/authorize', token: '/login/oauth/access_token' },
  gitlab: { api: '/api/v4', authorize: '/oauth/authorize', token: '/oauth/token' },
  gitea: { api: '/api/v1', authorize: '/login/oauth/authorize', token: '/login/oauth/access_token' },
};

/**
 * An OAuth app on the fake forge, shaped like the given forge type: the authorize page redirects
 * straight back with a code for `nextUser`, the token endpoint checks client credentials and the
 * code (single-use: a second exchange is `invalid_grant`), and `/user` answers for the bearer token.
 */
export class FakeOAuthApp {
  readonly clientId = `client-${randomBytes(4).toString('hex')}`;
  readonly clientSecret = randomBytes(16).toString('hex');
  nextUser: FakeForgeUser | null = null;
  private readonly codes = new Map<string, FakeForgeUser>();
  private readonly accessTokens = new Map<string, FakeForgeUser>();
  /** Each authorize request's query, for assertions on client_id, state and redirect_uri. */
  readonly authorizeRequests: URLSearchParams[] = [];
  /** Each token request's form, to tell whether a callback reached the forge at all. */
  readonly tokenRequests: URLSearchParams[] = [];
  /** When set, the next token request gets this answer instead (a forge failing or refusing). */
  nextTokenAnswer: { status: number; body: string } | null = null;

  constructor(
    private readonly forge: FakeForge,
    readonly type: OAuthForgeType,
    /** A path prefix, so one fake forge can host several instances. */
    readonly base = '',
  ) {
    const layout = OAUTH_LAYOUT[type];
    forge.route('GET', `${base}${layout.authorize}`, (req, res) => {
      const query = new URL(req.url ?? '/', 'http://x').searchParams;
      this.authorizeRequests.push(query);
      if (query.get('client_id') !== this.clientId || !this.nextUser) {
        res.writeHead(400);
        res.end('unknown client or no user');
        return;
      }
      const code = randomBytes(8).toString('hex');
      this.codes.set(code, this.nextUser);
      const back = new URL(query.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', query.get('state') ?? '');
      res.writeHead(302, { Location: back.toString() });
      res.end();
    });
    forge.route('POST', `${base}${layout.token}`, (_req, res, _params, body) => {
      const form = new URLSearchParams(body.toString());
      this.tokenRequests.push(form);
      const override = this.nextTokenAnswer;
      if (override) {
        this.nextTokenAnswer = null;
        res.writeHead(override.status, { 'Content-Type': 'application/json' });
        res.end(override.body);
        return;
      }
      if (form.get('client_id') !== this.clientId || form.get('client_secret') !== this.clientSecret) {
        res.writeHead(401, { 'Content-Type': 'application/json' });
        res.end('{"error":"invalid_client"}');
        return;
      }
      // A code is single-use (RFC 6749 4.1.2): a reused or unknown one is invalid_grant.
      const user = this.codes.get(form.get('code') ?? '');
      if (!user) {
        res.writeHead(400, { 'Content-Type': 'application/json' });
        res.end('{"error":"invalid_grant","error_description":"The authorization code is invalid, expired or already used."}');
        return;
      }
      this.codes.delete(form.get('code')!);
      const token = `at_${randomBytes(12).toString('hex')}`;
      this.accessTokens.set(token, user);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ access_token: token, token_type: 'bearer', scope: 'read:user' }));
    });
    forge.route('GET', `${base}${layout.api}/user`, (req, res) => {
      const token = /^(?:Bearer|token) (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
      const user = token ? this.accessTokens.get(token) : undefined;
      if (!user) {
        res.writeHead(401, { 'Content-Type': 'application/json' });
        res.end('{"message":"Bad credentials"}');
        return;
      }
      const loginKey = type === 'gitlab' ? 'username' : 'login';
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ id: user.id, [loginKey]: user.login, email: user.email ?? null, avatar_url: user.avatarUrl ?? null }));
    });
  }

  /** The FORGES entry for this app. */
  instance(name: string) {
    return {
      name,
      type: this.type,
      webUrl: `${this.forge.url}${this.base}`,
      apiUrl: `${this.forge.url}${this.base}${OAUTH_LAYOUT[this.type].api}`,
      clientId: this.clientId,
      clientSecret: this.clientSecret,
    };
  }
}
