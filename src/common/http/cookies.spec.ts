import { parseCookieHeader, requestCookies } from './cookies';

const parse = (header: string | undefined) => Object.fromEntries(parseCookieHeader(header));

describe('parseCookieHeader', () => {
  it('reads the spellings clients send: blanks around names and values, quotes, escapes', () => {
    expect(parse('a=1; b=2')).toEqual({ a: '1', b: '2' });
    expect(parse('a=1;b=2')).toEqual({ a: '1', b: '2' });
    expect(parse('registry_session =jwt')).toEqual({ registry_session: 'jwt' });
    expect(parse('\tregistry_session\t=\tjwt\t')).toEqual({ registry_session: 'jwt' });
    expect(parse('registry_session="jwt"')).toEqual({ registry_session: 'jwt' });
    expect(parse('registry_session = "jwt" ')).toEqual({ registry_session: 'jwt' });
    expect(parse('lang=pt%2DBR')).toEqual({ lang: 'pt-BR' });
    expect(parse('v=a=b')).toEqual({ v: 'a=b' });
  });

  it('keeps the first of a repeated name, skips pieces without a name or =, keeps an escape that does not decode', () => {
    expect(parse('s=first; s=second')).toEqual({ s: 'first' });
    expect(parse('s=; s=second')).toEqual({ s: '' });
    expect(parse('novalue; =orphan; ; s=1')).toEqual({ s: '1' });
    expect(parse('s=%E0%A4%A')).toEqual({ s: '%E0%A4%A' });
    expect(parse('s="')).toEqual({ s: '"' });
    expect(parse('')).toEqual({});
    expect(parse(undefined)).toEqual({});
  });

  it('compares names exactly, as cookies are named', () => {
    expect(parse('Registry_Session=x').registry_session).toBeUndefined();
  });
});

describe('requestCookies', () => {
  it('parses a request once and answers the same map after', () => {
    const request = { headers: { cookie: 'a=1' } };
    const first = requestCookies(request);
    expect(requestCookies(request)).toBe(first);
    expect(first.get('a')).toBe('1');
  });
});
