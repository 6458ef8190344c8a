import { requireSameOrigin } from './same-origin';

const BASE = 'https://registry.example';
const post = (headers: Record<string, string>) => ({ origin: headers.origin, fetchSite: headers['sec-fetch-site'] });

describe('the sign-in form origin check', () => {
  it('takes same-origin posts, and clients that are not browsers', () => {
    expect(() => requireSameOrigin(post({ 'sec-fetch-site': 'same-origin', origin: 'null' }), BASE)).not.toThrow();
    expect(() => requireSameOrigin(post({ origin: BASE }), BASE)).not.toThrow();
    expect(() => requireSameOrigin(post({}), BASE)).not.toThrow();
  });

  it('refuses other sites, by Sec-Fetch-Site first, then by Origin', () => {
    const refused: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: BASE },
      { origin: 'https://evil.example' },
      { origin: 'null' },
    ];
    for (const headers of refused) {
      expect(() => requireSameOrigin(post(headers), BASE)).toThrow(/only from this registry's own pages/);
    }
  });
});
