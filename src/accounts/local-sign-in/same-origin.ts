import { DomainError } from '../../common/errors/domain-error';

/**
 * A form post is only taken from this site's own pages (login CSRF: a cross-site form could sign
 * a visitor into the attacker's account). Browsers say where a request comes from in
 * `Sec-Fetch-Site`, which must be `same-origin`; a browser too old for it sends `Origin`, which
 * must be BASE_URL's (this site's no-referrer policy makes browsers send `Origin: null` on form
 * posts, so `Sec-Fetch-Site` is what today's browsers are judged by). A client that sends neither
 * header is not a browser, and gets no cookie it did not ask for.
 */
export function requireSameOrigin(request: { origin: string | undefined; fetchSite: string | undefined }, baseUrl: string): void {
  const { origin, fetchSite: site } = request;
  const expected = new URL(baseUrl).origin;
  const ok = site !== undefined ? site === 'same-origin' : origin === undefined || origin === expected;
  if (!ok)
    throw new DomainError(
      'forbidden',
      'origin-check-failed',
      `a sign-in form is accepted only from this registry's own pages (${expected})`,
    );
}
