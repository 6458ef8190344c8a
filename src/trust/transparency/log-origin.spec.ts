import { logOrigin } from './log-origin';

describe('logOrigin', () => {
  it.each([
    ['https://registry.example.org', 'registry.example.org/log'],
    ['https://registry.example.org/', 'registry.example.org/log'],
    ['http://127.0.0.1:8080', '127.0.0.1:8080/log'],
    ['https://example.org/plugins/', 'example.org/plugins/log'],
    ['https://example.org:443/plugins', 'example.org/plugins/log'],
  ])('%s gives %s (host[:port] and path, no scheme)', (baseUrl, origin) => {
    expect(logOrigin(baseUrl)).toBe(origin);
  });
});
