import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { CookieOptions, Request, Response } from 'express';
import { clientIp } from '../../platform/auth/auth-context';
import type { SessionIssuedDto } from '../../platform/auth/dto/session-issued.dto';

/** What a sign-in needs of its HTTP request, read once (by `@SignInRequest()`) so the services never see Express. */
export interface SignInRequest {
  ip: string | null;
  /** An HTML form post (`application/x-www-form-urlencoded`): the no-script path. */
  formPost: boolean;
  origin: string | undefined;
  fetchSite: string | undefined;
}

export function signInRequest(request: Request): SignInRequest {
  const site = request.headers['sec-fetch-site'];
  return {
    ip: clientIp(request),
    formPost: request.is('application/x-www-form-urlencoded') === 'application/x-www-form-urlencoded',
    origin: request.headers.origin,
    fetchSite: typeof site === 'string' ? site : undefined,
  };
}

export const SignInRequestParam = createParamDecorator((_data: unknown, context: ExecutionContext): SignInRequest =>
  signInRequest(context.switchToHttp().getRequest<Request>()),
);

/** The session cookie a sign-in sets. */
export interface SessionCookie {
  name: string;
  value: string;
  options: CookieOptions;
}

/** A sign-in that succeeded: the JSON answer and its cookie. */
export interface SignedIn {
  body: SessionIssuedDto;
  cookie: SessionCookie;
}

/** What a form post is answered with: a 303, with the cookie when it signed in. */
export interface SignInRedirect {
  location: string;
  cookie?: SessionCookie;
  retryAfter?: number;
}

export type SignInReply = ({ kind: 'json' } & SignedIn) | ({ kind: 'redirect' } & SignInRedirect);

/** Sets the cookie of a JSON sign-in (a passthrough response) and gives the body to send. */
export function withSession(response: Response, signedIn: SignedIn): SessionIssuedDto {
  response.cookie(signedIn.cookie.name, signedIn.cookie.value, signedIn.cookie.options);
  response.setHeader('Cache-Control', 'no-store');
  return signedIn.body;
}

/** Sends a reply that is JSON or a 303, whichever the service decided (a `@Res()` response). */
export function sendSignIn(response: Response, reply: SignInReply): void {
  response.setHeader('Cache-Control', 'no-store');
  if (reply.cookie) response.cookie(reply.cookie.name, reply.cookie.value, reply.cookie.options);
  if (reply.kind === 'json') {
    response.status(200).json(reply.body);
    return;
  }
  if (reply.retryAfter !== undefined) response.setHeader('Retry-After', String(reply.retryAfter));
  response.redirect(303, reply.location);
}
