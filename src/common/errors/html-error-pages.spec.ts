import type { Request } from 'express';
import { HtmlErrorPages } from './html-error-pages';

describe('the HTML 404 page', () => {
  const pages = new HtmlErrorPages();
  pages.register(() => Promise.resolve());
  const req = (method: string, path: string, accept?: string) =>
    ({
      method,
      path,
      accepts: (types: string[]) =>
        accept === undefined || accept === '*/*'
          ? types[0]
          : accept.includes('text/html')
            ? 'text/html'
            : accept.includes('json')
              ? 'application/json'
              : false,
    }) as unknown as Request;

  it('is for a browser loading a page outside the API; everything else keeps problem+json', () => {
    expect(pages.wants(req('GET', '/no/such/page', 'text/html,application/xhtml+xml,*/*;q=0.8'))).toBe(true);
    expect(pages.wants(req('HEAD', '/no/such/page', 'text/html'))).toBe(true);
    expect(pages.wants(req('GET', '/api/nothing', 'text/html'))).toBe(false);
    expect(pages.wants(req('GET', '/api', 'text/html'))).toBe(false);
    expect(pages.wants(req('GET', '/no/such/page', '*/*'))).toBe(false);
    expect(pages.wants(req('GET', '/no/such/page'))).toBe(false);
    expect(pages.wants(req('POST', '/no/such/page', 'text/html'))).toBe(false);
    expect(new HtmlErrorPages().wants(req('GET', '/no/such/page', 'text/html'))).toBe(false);
  });
});
