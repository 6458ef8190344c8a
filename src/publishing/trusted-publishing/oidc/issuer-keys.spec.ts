import { FakeOidcIssuer } from '../../../../test/support/fake-oidc';
import { Clock } from '../../../common/clock';
import { DomainError } from '../../../common/errors/domain-error';
import type { FetchPolicy } from '../../../platform/fetch-policy/fetch-policy';
import { IssuerKeys, KEY_SET_TTL_MS, UNKNOWN_KID_REFRESH_MS } from './issuer-keys';

class ManualClock extends Clock {
  ms = Date.now();
  now(): Date {
    return new Date(this.ms);
  }
}

/** IssuerKeys against a fake issuer on loopback, with time moved by hand. */
describe('IssuerKeys', () => {
  let issuer: FakeOidcIssuer;
  let clock: ManualClock;
  let keys: IssuerKeys;
  const input = { payload: '', signature: '', protected: '' };
  const jwksReads = () => issuer.requests.filter((path) => path === '/jwks').length;

  beforeEach(async () => {
    issuer = await new FakeOidcIssuer().start();
    await issuer.newKey('RS256');
    clock = new ManualClock();
    const policy = {
      text: () => ({
        maxBytes: 1 << 20,
        allowHosts: [`127.0.0.1:${issuer.port}`],
        connectTimeoutMs: 2000,
        idleTimeoutMs: 2000,
        totalTimeoutMs: 5000,
        maxRedirects: 0,
      }),
    } as unknown as FetchPolicy;
    keys = new IssuerKeys(policy, clock);
  });
  afterEach(() => issuer.stop());

  const keyFor = (kid: string) => keys.key(issuer.url, { alg: 'RS256', kid }, input);

  it('reads the discovery document and the key set once, then serves from the cache until the TTL', async () => {
    await keyFor(issuer.published[0].kid);
    await keyFor(issuer.published[0].kid);
    expect(jwksReads()).toBe(1);
    clock.ms += KEY_SET_TTL_MS;
    await keyFor(issuer.published[0].kid);
    expect(jwksReads()).toBe(2);
  });

  it('reads again for an unknown kid only after the cooldown', async () => {
    await keyFor(issuer.published[0].kid);
    const rotated = await issuer.newKey('RS256');
    await expect(keyFor(rotated.kid)).rejects.toMatchObject({ code: 'oidc-token-invalid' });
    expect(jwksReads()).toBe(1);
    clock.ms += UNKNOWN_KID_REFRESH_MS;
    await expect(keyFor(rotated.kid)).resolves.toBeDefined();
    expect(jwksReads()).toBe(2);
  });

  it('keeps the last key set while the issuer is unreachable, but not when its documents turn bad', async () => {
    await keyFor(issuer.published[0].kid);
    issuer.jwksUri = 'http://169.254.169.254/jwks';
    clock.ms += KEY_SET_TTL_MS;
    await expect(keyFor(issuer.published[0].kid)).rejects.toMatchObject({ code: 'oidc-token-invalid' });
    issuer.jwksUri = null;
    await keyFor(issuer.published[0].kid);
    await issuer.stop();
    clock.ms += KEY_SET_TTL_MS;
    await expect(keyFor(issuer.published[0].kid)).resolves.toBeDefined();
  });

  it('answers a first read of an unreachable issuer with a 502-kind error', async () => {
    await issuer.stop();
    const error = await keyFor('any').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ kind: 'upstream-failed', code: 'oidc-issuer-unreachable' });
  });
});
