import { Body, Controller, Get, HttpCode, Post, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiForbiddenResponse,
  ApiGoneResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiSeeOtherResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { SessionIssuedDto } from '../../platform/auth/dto/session-issued.dto';
import { ProblemDto } from '../../openapi/problem.dto';
import { PasskeyAnswerDto, PasskeyOptionsDto } from './dto/passkey.dto';
import { SignInMethodsDto } from './dto/password.dto';
import { PasswordSignInDto } from './dto/password-sign-in.dto';
import { SignInLinkDto, SignInLinkFormDto } from './dto/sign-in-link.dto';
import { LinkSignInService } from './link-sign-in.service';
import { PasskeySignInService } from './passkey-sign-in.service';
import { PasswordSignInService } from './password-sign-in.service';
import { sendSignIn, SignInRequestParam, type SignInRequest, withSession } from './sign-in-http';

const LIMITED = {
  type: ProblemDto,
  description:
    'Too many failed sign-ins from this address (setting ratelimit.signin_failures_per_ip), or too many sign-in requests; Retry-After says when to try again',
};

/** Sign-in without a forge: passkeys, passwords (a fallback the operator may turn off) and one-time links. */
@ApiTags('auth')
@Controller()
export class LocalSignInController {
  constructor(
    private readonly passwords: PasswordSignInService,
    private readonly passkeys: PasskeySignInService,
    private readonly links: LinkSignInService,
  ) {}

  @Get('api/auth/sign-in/methods')
  @ApiOperation({ summary: 'Which local sign-in methods this registry offers', security: [] })
  @ApiOkResponse({ type: SignInMethodsDto })
  @ApiTooManyRequestsResponse(LIMITED)
  methods(): Promise<SignInMethodsDto> {
    return this.passwords.methods();
  }

  @Post('api/auth/sign-in/password')
  @ApiOperation({
    summary: 'Sign in to a local account with its password',
    description:
      'JSON answers `{token, user}` and sets the session cookie. An HTML form post (application/x-www-form-urlencoded, from this site only) is answered 303 to `next` (default /account), or 303 back to /sign-in?error=<code>. Unknown login, wrong password, a locked or disabled account all get the same 401.',
    security: [],
  })
  @ApiConsumes('application/json', 'application/x-www-form-urlencoded')
  @ApiBody({ type: PasswordSignInDto })
  @ApiOkResponse({ type: SessionIssuedDto, description: 'Signed in: session cookie set' })
  @ApiSeeOtherResponse({ description: 'HTML form posts: signed in (to `next`) or refused (back to /sign-in with the reason)' })
  @ApiUnauthorizedResponse({
    type: ProblemDto,
    description: 'sign-in-failed: the login or the password is wrong (or the account is locked for a while, or disabled)',
  })
  @ApiForbiddenResponse({ type: ProblemDto, description: "origin-check-failed: a form post from another site's page" })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'password-sign-in-off: the operator turned password sign-in off' })
  @ApiTooManyRequestsResponse(LIMITED)
  async password(@Body() body: PasswordSignInDto, @SignInRequestParam() request: SignInRequest, @Res() response: Response): Promise<void> {
    sendSignIn(response, await this.passwords.signIn(body, request));
  }

  @Post('api/auth/sign-in/passkey/options')
  @HttpCode(200)
  @ApiOperation({ summary: 'Start a passkey sign-in: WebAuthn request options with a fresh challenge', security: [] })
  @ApiOkResponse({ type: PasskeyOptionsDto })
  @ApiTooManyRequestsResponse(LIMITED)
  passkeyOptions(): Promise<PasskeyOptionsDto> {
    return this.passkeys.options();
  }

  @Post('api/auth/sign-in/passkey')
  @HttpCode(200)
  @ApiOperation({ summary: "Finish a passkey sign-in with the browser's answer", security: [] })
  @ApiOkResponse({ type: SessionIssuedDto, description: 'Signed in: session cookie set' })
  @ApiUnauthorizedResponse({
    type: ProblemDto,
    description: 'passkey-rejected: an unknown passkey, a challenge not issued or used already, or a signature that does not verify',
  })
  @ApiTooManyRequestsResponse(LIMITED)
  async passkey(
    @Body() body: PasskeyAnswerDto,
    @SignInRequestParam() request: SignInRequest,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SessionIssuedDto> {
    return withSession(response, await this.passkeys.signIn(body, request.ip));
  }

  @Post('api/auth/sign-in/link')
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign in with the token of a one-time sign-in link', security: [] })
  @ApiOkResponse({ type: SessionIssuedDto, description: 'Signed in: session cookie set; the link is used up' })
  @ApiGoneResponse({ type: ProblemDto, description: 'sign-in-link-used or sign-in-link-expired' })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'sign-in-link-unknown' })
  @ApiTooManyRequestsResponse(LIMITED)
  async link(
    @Body() body: SignInLinkDto,
    @SignInRequestParam() request: SignInRequest,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SessionIssuedDto> {
    return withSession(response, await this.links.use(body.token, request.ip));
  }

  @Post('auth/link')
  @ApiOperation({
    summary: 'Use a one-time sign-in link: the form behind the button on the page `GET /auth/link?token=` shows',
    description:
      'An HTML form post (application/x-www-form-urlencoded) from this site only. Following the link itself (GET) uses nothing up.',
    security: [],
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({ type: SignInLinkFormDto })
  @ApiSeeOtherResponse({
    description:
      'Signed in: 303 to /account with the session cookie. Refused: 303 to /sign-in/link?error=used|expired|unknown, a page that says why',
  })
  @ApiForbiddenResponse({ type: ProblemDto, description: "origin-check-failed: a form post from another site's page" })
  @ApiTooManyRequestsResponse(LIMITED)
  async follow(@Body() body: SignInLinkFormDto, @SignInRequestParam() request: SignInRequest, @Res() response: Response): Promise<void> {
    sendSignIn(response, { kind: 'redirect', ...(await this.links.follow(body.token, request)) });
  }
}
