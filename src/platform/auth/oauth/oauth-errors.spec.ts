import OAuth2Strategy from 'passport-oauth2';
import { DomainError } from '../../../common/errors/domain-error';
import { LocalSignInFailure, signInFailure, tokenErrorFromAnswer } from './oauth-errors';

describe('tokenErrorFromAnswer', () => {
  it('keeps the OAuth error code and the HTTP status', () => {
    const error = tokenErrorFromAnswer('{"error":"invalid_grant","error_description":"used"}', 400);
    expect(error).toBeInstanceOf(OAuth2Strategy.TokenError);
    expect(error).toMatchObject({ code: 'invalid_grant', status: 400, message: 'used' });
  });

  it.each([['<html>oops</html>'], [''], ['{"message":"no error field"}'], ['"invalid_grant"'], ['null']])(
    'is null for a body that is no OAuth error: %s',
    (body) => {
      expect(tokenErrorFromAnswer(body, 500)).toBeNull();
    },
  );
});

describe('signInFailure', () => {
  const lines: string[] = [];
  const classify = (error: unknown) => signInFailure('forge', error, (line) => lines.push(line));
  const kindOf = (error: Error) => (error instanceof DomainError ? error.kind : 'internal');

  it.each([
    ['invalid_grant', 400, 'unauthorized'],
    ['invalid_grant', 401, 'unauthorized'],
    ['bad_verification_code', 200, 'unauthorized'],
    ['invalid_grant', 503, 'upstream-failed'],
    ['temporarily_unavailable', 503, 'upstream-failed'],
    ['invalid_client', 401, 'upstream-failed'],
  ])('a token endpoint answering "%s" with HTTP %d is %s', (code, status, kind) => {
    expect(kindOf(classify(new OAuth2Strategy.TokenError(undefined, code, undefined, status)))).toBe(kind);
  });

  it('blames the forge for an unreachable token endpoint, and logs why without the body', () => {
    lines.length = 0;
    const unreachable = new OAuth2Strategy.InternalOAuthError(
      'Failed to obtain access token',
      Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }),
    );
    expect(kindOf(classify(unreachable))).toBe('upstream-failed');
    expect(lines).toEqual(['signing in with forge failed at the forge: Failed to obtain access token (ECONNREFUSED)']);
  });

  it('lets a failure of the registry itself through as it is', () => {
    const cause = new Error('database is down');
    expect(classify(new LocalSignInFailure(cause))).toBe(cause);
  });

  it('answers 401 to an error the forge sent back through the browser', () => {
    expect(kindOf(classify(new OAuth2Strategy.AuthorizationError('no', 'server_error')))).toBe('unauthorized');
  });
});
