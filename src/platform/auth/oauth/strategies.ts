import { request as httpsRequest } from 'node:https';
import { Strategy as GitHubStrategy } from 'passport-github2';
import OAuth2Strategy, { type VerifyCallback } from 'passport-oauth2';
import type { PolicyAgents } from '../../../common/fetch';
import type { ForgeInstanceConfig } from '../../../config/config.types';
import { forgeAdapter } from '../../forges/adapters';
import { withForgeTokenErrors } from './oauth-errors';
import type { CookieStateStore } from './oauth-state-store';

/** What every forge tells us about the person signing in. */
export interface ForgeProfile {
  id: string;
  login: string;
  email: string | null;
  avatarUrl: string | null;
}

export type ProfileVerify = (accessToken: string, profile: ForgeProfile, done: (error: Error | null, user?: unknown) => void) => void;

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

/** Reads the forge's user document; GitLab names the login `username`, the others `login`. */
export function profileFromUserDocument(json: Record<string, unknown>): ForgeProfile | null {
  const id = json.id;
  const login = stringOrNull(json.login) ?? stringOrNull(json.username);
  if ((typeof id !== 'number' && typeof id !== 'string') || !/^\d+$/.test(String(id)) || !login) return null;
  return { id: String(id), login, email: stringOrNull(json.email), avatarUrl: stringOrNull(json.avatar_url) };
}

/** GitLab and Gitea: generic OAuth 2 plus the forge's `/user` document. */
class ForgeOAuth2Strategy extends OAuth2Strategy {
  constructor(
    options: OAuth2Strategy.StrategyOptions,
    private readonly userURL: string,
    verify: OAuth2Strategy.VerifyFunction,
  ) {
    super(options, verify);
    this._oauth2.useAuthorizationHeaderforGET(true);
  }

  override userProfile(accessToken: string, done: (err?: unknown, profile?: unknown) => void): void {
    this._oauth2.get(this.userURL, accessToken, (error, body) => {
      if (error) return done(new Error('the forge did not return the user'));
      try {
        done(null, JSON.parse(String(body)));
      } catch {
        done(new Error('the forge returned an unreadable user document'));
      }
    });
  }
}

/** node-oauth's OAuth2 client, down to the one method every request (token, profile) goes through. */
interface OAuth2Requests {
  setAgent(agent: unknown): void;
  _executeRequest(library: { request: typeof httpsRequest }, options: unknown, body: unknown, callback: unknown): void;
}

/**
 * Sends the strategy's token exchange and profile read through the fetch policy's agents: the
 * client secret and the user's token never go to a host that now resolves to a private or
 * metadata address (unless allow-listed). node-oauth picks http or https per URL but takes one
 * agent, so the matching one is set just before each request.
 */
function throughPolicy(strategy: OAuth2Strategy, agents: PolicyAgents): OAuth2Strategy {
  const client = (strategy as unknown as { _oauth2: OAuth2Requests })._oauth2;
  const execute = client._executeRequest.bind(client);
  client._executeRequest = (library, options, body, callback) => {
    client.setAgent(library.request === httpsRequest ? agents.https : agents.http);
    execute(library, options, body, callback);
  };
  return strategy;
}

/** A passport strategy for one forge instance, verifying through `verify`, its requests through `agents`. */
export function strategyFor(
  forge: ForgeInstanceConfig,
  callbackURL: string,
  stateStore: CookieStateStore,
  verify: ProfileVerify,
  agents: PolicyAgents,
): OAuth2Strategy {
  const urls = forgeAdapter(forge.type).oauthEndpoints(forge);
  const common = {
    clientID: forge.clientId!,
    clientSecret: forge.clientSecret!,
    callbackURL,
    authorizationURL: urls.authorizationURL,
    tokenURL: urls.tokenURL,
    scope: urls.scope,
    store: stateStore as unknown as OAuth2Strategy.StateStore,
  };
  const onProfile = (accessToken: string, _refresh: string, raw: unknown, done: VerifyCallback) => {
    const json = (raw as { _json?: Record<string, unknown> })._json ?? (raw as Record<string, unknown>);
    const profile = profileFromUserDocument(json);
    if (!profile) return done(new Error('the forge returned a user without a numeric id or login'));
    verify(accessToken, profile, done as (error: Error | null, user?: unknown) => void);
  };
  if (urls.passportStrategy === 'github2') {
    return withForgeTokenErrors(
      throughPolicy(new GitHubStrategy({ ...common, userProfileURL: urls.userURL }, onProfile) as unknown as OAuth2Strategy, agents),
    );
  }
  return withForgeTokenErrors(throughPolicy(new ForgeOAuth2Strategy(common, urls.userURL, onProfile), agents));
}
