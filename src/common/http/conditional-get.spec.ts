import { notModified } from './conditional-get';

describe('notModified', () => {
  const etag = 'W/"a"';

  it('compares If-None-Match weakly, in lists and with *', () => {
    expect(notModified({ 'if-none-match': 'W/"a"' }, { etag })).toBe(true);
    expect(notModified({ 'if-none-match': '"a"' }, { etag })).toBe(true);
    expect(notModified({ 'if-none-match': '"x", W/"a"' }, { etag })).toBe(true);
    expect(notModified({ 'if-none-match': '*' }, { etag })).toBe(true);
    expect(notModified({ 'if-none-match': '"b"' }, { etag })).toBe(false);
    expect(notModified({}, { etag })).toBe(false);
    expect(notModified({ 'if-none-match': 'W/"a"' }, {})).toBe(false);
  });

  // fetch() sends both with every request that carries If-None-Match.
  it('answers 304 to a matching ETag whatever Cache-Control or Pragma the request carries', () => {
    expect(notModified({ 'if-none-match': etag, 'cache-control': 'no-cache', pragma: 'no-cache' }, { etag })).toBe(true);
    expect(notModified({ 'if-none-match': etag, 'cache-control': 'max-age=0' }, { etag })).toBe(true);
    expect(notModified({ 'if-none-match': '"b"', 'cache-control': 'no-cache' }, { etag })).toBe(false);
  });

  it('reads If-Modified-Since only without If-None-Match', () => {
    const lastModified = 'Mon, 07 Dec 2026 09:00:00 GMT';
    expect(notModified({ 'if-modified-since': lastModified }, { 'last-modified': lastModified })).toBe(true);
    expect(notModified({ 'if-modified-since': 'Mon, 07 Dec 2026 08:00:00 GMT' }, { 'last-modified': lastModified })).toBe(false);
    expect(notModified({ 'if-modified-since': lastModified, 'if-none-match': '"b"' }, { etag, 'last-modified': lastModified })).toBe(false);
  });
});
