import { rateLimitRule } from './rate-limit-rules';

const facts = (method: string, path: string, authorization?: string) => ({ method, path, ip: '203.0.113.9', authorization });

describe('rateLimitRule', () => {
  it('counts public reads per IP and lets them through when the counters fail', () => {
    for (const path of ['/api/plugins', '/api/plugins/x/releases/1.0.0', '/', '/openapi', '/api/admin/audit']) {
      expect(rateLimitRule(facts('GET', path))).toEqual({ bucket: 'read', setting: 'ratelimit.public_read_per_min', subject: 'ip:203.0.113.9', failOpen: true });
    }
    expect(rateLimitRule(facts('HEAD', '/api/plugins'))?.bucket).toBe('read');
  });

  it('counts publish per bearer token, never keeping the token, and per IP without one; it fails closed', () => {
    const withToken = rateLimitRule(facts('POST', '/api/publish/alpha', 'Bearer prt_secret-token'));
    expect(withToken).toMatchObject({ bucket: 'publish', setting: 'ratelimit.publish_per_min', failOpen: false });
    expect(withToken!.subject).toMatch(/^token:[A-Za-z0-9_-]{32}$/);
    expect(withToken!.subject).not.toContain('secret');
    expect(rateLimitRule(facts('POST', '/api/publish/alpha/yank', 'Bearer prt_secret-token'))!.subject).toBe(withToken!.subject);
    expect(rateLimitRule(facts('POST', '/api/publish/alpha', 'Bearer other'))!.subject).not.toBe(withToken!.subject);
    expect(rateLimitRule(facts('POST', '/api/publish/alpha'))!.subject).toBe('ip:203.0.113.9');
  });

  it('counts webhooks, sign-in and the wizard per IP; only webhooks fail open', () => {
    expect(rateLimitRule(facts('POST', '/api/webhooks/release'))).toMatchObject({ bucket: 'webhook', setting: 'ratelimit.webhook_per_min', failOpen: true });
    expect(rateLimitRule(facts('GET', '/auth/github/login'))).toMatchObject({ bucket: 'signin', setting: 'ratelimit.signin_per_min', failOpen: false });
    expect(rateLimitRule(facts('GET', '/auth/github/callback'))?.bucket).toBe('signin');
    expect(rateLimitRule(facts('POST', '/api/init/admin'))).toMatchObject({ bucket: 'wizard', setting: 'ratelimit.signin_per_min', failOpen: false });
    expect(rateLimitRule(facts('GET', '/api/init/status'))?.bucket).toBe('wizard');
  });

  it('leaves probes, the metrics scrape and session-only writes alone', () => {
    expect(rateLimitRule(facts('GET', '/health/live'))).toBeNull();
    expect(rateLimitRule(facts('GET', '/health/ready'))).toBeNull();
    expect(rateLimitRule(facts('GET', '/metrics'))).toBeNull();
    expect(rateLimitRule(facts('POST', '/api/requests'))).toBeNull();
    expect(rateLimitRule(facts('PATCH', '/api/admin/settings'))).toBeNull();
    expect(rateLimitRule(facts('GET', '/authors'))?.bucket).toBe('read');
    expect(rateLimitRule(facts('POST', '/api/publisher'))).toBeNull();
  });
});
