import { rateLimitRule, userActionRule } from './rate-limit-rules';

const facts = (method: string, path: string, authorization?: string) => ({ method, path, client: '203.0.113.9', authorization });

describe('rateLimitRule', () => {
  it('counts public reads per IP and lets them through when the counters fail', () => {
    for (const path of ['/api/plugins', '/api/plugins/x/releases/1.0.0', '/', '/openapi', '/api/admin/audit']) {
      expect(rateLimitRule(facts('GET', path))).toEqual({
        bucket: 'read',
        setting: 'ratelimit.public_read_per_min',
        subject: 'ip:203.0.113.9',
        failOpen: true,
      });
    }
    expect(rateLimitRule(facts('HEAD', '/api/plugins'))?.bucket).toBe('read');
  });

  it('counts publish per address until the bearer token verifies, naming the token by a digest only; it fails closed', () => {
    const withToken = rateLimitRule(facts('POST', '/api/publish/alpha', 'Bearer prt_secret-token'));
    expect(withToken).toMatchObject({
      bucket: 'publish',
      setting: 'ratelimit.publish_per_min',
      subject: 'ip:203.0.113.9',
      failOpen: false,
    });
    expect(withToken!.tokenSubject).toMatch(/^token:[A-Za-z0-9_-]{32}$/);
    expect(withToken!.tokenSubject).not.toContain('secret');
    expect(rateLimitRule(facts('POST', '/api/publish/alpha/yank', 'Bearer prt_secret-token'))!.tokenSubject).toBe(withToken!.tokenSubject);
    expect(rateLimitRule(facts('POST', '/api/publish/alpha', 'Bearer other'))!.tokenSubject).not.toBe(withToken!.tokenSubject);
    expect(rateLimitRule(facts('POST', '/api/publish/alpha'))).toEqual({
      bucket: 'publish',
      setting: 'ratelimit.publish_per_min',
      subject: 'ip:203.0.113.9',
      failOpen: false,
    });
  });

  it('counts webhooks, sign-in and the wizard per IP; only webhooks fail open', () => {
    expect(rateLimitRule(facts('POST', '/api/webhooks/release'))).toMatchObject({
      bucket: 'webhook',
      setting: 'ratelimit.webhook_per_min',
      failOpen: true,
    });
    expect(rateLimitRule(facts('GET', '/auth/github/login'))).toMatchObject({
      bucket: 'signin',
      setting: 'ratelimit.signin_per_min',
      failOpen: false,
    });
    expect(rateLimitRule(facts('GET', '/auth/github/callback'))?.bucket).toBe('signin');
    expect(rateLimitRule(facts('POST', '/api/init/admin'))).toMatchObject({
      bucket: 'wizard',
      setting: 'ratelimit.signin_per_min',
      failOpen: false,
    });
    expect(rateLimitRule(facts('GET', '/api/init/status'))?.bucket).toBe('wizard');
  });

  it('leaves probes, the metrics scrape and session writes (limited per user after the session guard) alone', () => {
    expect(rateLimitRule(facts('GET', '/health/live'))).toBeNull();
    expect(rateLimitRule(facts('GET', '/health/ready'))).toBeNull();
    expect(rateLimitRule(facts('GET', '/metrics'))).toBeNull();
    expect(rateLimitRule(facts('POST', '/api/requests'))).toBeNull();
    expect(rateLimitRule(facts('PATCH', '/api/admin/settings'))).toBeNull();
    expect(rateLimitRule(facts('GET', '/authors'))?.bucket).toBe('read');
    expect(rateLimitRule(facts('POST', '/api/publisher'))).toBeNull();
  });

  it('counts signed-in actions per user, closed when the counters fail', () => {
    expect(userActionRule('wishlist-request', 'u1')).toEqual({
      bucket: 'wishlist-request',
      setting: 'ratelimit.wishlist_request_per_hour',
      subject: 'user:u1',
      failOpen: false,
    });
    expect(userActionRule('wishlist-vote', 'u1').setting).toBe('ratelimit.wishlist_vote_per_min');
    expect(userActionRule('submit', 'u1').setting).toBe('ratelimit.submit_per_hour');
  });
});
