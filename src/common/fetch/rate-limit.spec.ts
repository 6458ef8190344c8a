import { rateLimitWaitMs } from './rate-limit';

const NOW = Date.parse('2026-11-23T10:00:00Z');

describe('rateLimitWaitMs', () => {
  it('reads Retry-After in seconds or as an HTTP date', () => {
    expect(rateLimitWaitMs({ 'retry-after': '120' }, NOW)).toBe(120_000);
    expect(rateLimitWaitMs({ 'retry-after': 'Mon, 23 Nov 2026 10:05:00 GMT' }, NOW)).toBe(300_000);
    expect(rateLimitWaitMs({ 'retry-after': 'Mon, 23 Nov 2026 09:00:00 GMT' }, NOW)).toBe(0);
  });

  it("reads an exhausted quota's reset time, GitHub/Gitea and GitLab spellings", () => {
    const reset = String(NOW / 1000 + 90);
    expect(rateLimitWaitMs({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }, NOW)).toBe(90_000);
    expect(rateLimitWaitMs({ 'ratelimit-remaining': '0', 'ratelimit-reset': reset }, NOW)).toBe(90_000);
    expect(rateLimitWaitMs({ 'x-ratelimit-remaining': '12', 'x-ratelimit-reset': reset }, NOW)).toBeNull();
  });

  it('answers null without such headers, and bounds an absurd wait', () => {
    expect(rateLimitWaitMs({}, NOW)).toBeNull();
    expect(rateLimitWaitMs({ 'retry-after': 'soon' }, NOW)).toBeNull();
    expect(rateLimitWaitMs({ 'retry-after': '99999999' }, NOW)).toBe(6 * 60 * 60 * 1000);
  });
});
