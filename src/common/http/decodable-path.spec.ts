import { isDecodablePath } from './decodable-path';

describe('isDecodablePath', () => {
  it.each(['/api/plugins/hello', '/api/plugins/caf%C3%A9', '/', '//api//plugins', '/api/plugins/..', '/%2F'])('accepts %s', (path) => {
    expect(isDecodablePath(path)).toBe(true);
  });

  it.each(['/api/plugins/%FF', '/plugins/%', '/%E0%A4%A', '/%C0%AF', '/%ED%A0%80', '/a%00b', '/%zz'])('refuses %s', (path) => {
    expect(isDecodablePath(path)).toBe(false);
  });
});
