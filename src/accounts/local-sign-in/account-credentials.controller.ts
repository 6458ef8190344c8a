import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Put } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import type { SessionAuthContext } from '../../platform/auth/auth-context';
import { Auth, SignedIn } from '../../platform/auth/auth.decorators';
import { ProblemDto } from '../../openapi/problem.dto';
import { AccountPasswordService } from './account-password.service';
import { PasskeyDto, PasskeyListDto, PasskeyOptionsDto, PasskeyRegistrationDto, PasskeyRenameDto } from './dto/passkey.dto';
import { PasswordStatusDto, SetPasswordDto } from './dto/password.dto';
import { StepUpDto } from './dto/step-up.dto';
import { PasskeysService } from './passkeys.service';
import { SignInRequestParam, type SignInRequest } from './sign-in-http';
import { StepUpService } from './step-up.service';

const STEP_UP = {
  type: ProblemDto,
  description: 'step-up-required: this session signed in (or stepped up with POST /api/auth/me/step-up) more than 10 minutes ago',
};
const PASSWORD_LIMITED = {
  type: ProblemDto,
  description:
    'rate-limited (setting ratelimit.password_checks_per_hour, per account and per address) or account-locked (too many wrong passwords); Retry-After says when to try again',
};
const HASHING_BUSY = {
  type: ProblemDto,
  description: 'password-hashing-busy: too many password hashes running on this server (PASSWORD_HASH_CONCURRENCY); Retry-After',
};

/** The signed-in user's own ways in: passkeys and (local accounts) a password. */
@ApiTags('auth')
@Controller('api/auth/me')
export class AccountCredentialsController {
  constructor(
    private readonly passkeys: PasskeysService,
    private readonly password: AccountPasswordService,
    private readonly stepUp: StepUpService,
  ) {}

  @Post('step-up/options')
  @HttpCode(200)
  @SignedIn()
  @ApiOperation({
    summary: 'Start a step-up with a passkey: WebAuthn request options naming your passkeys, with a challenge only you can answer',
  })
  @ApiOkResponse({ type: PasskeyOptionsDto })
  @ApiConflictResponse({
    type: ProblemDto,
    description: 'no-passkey: you have no passkey (step up with your current password, or sign in again)',
  })
  stepUpOptions(@Auth() auth: SessionAuthContext): Promise<PasskeyOptionsDto> {
    return this.stepUp.options(auth);
  }

  @Post('step-up')
  @HttpCode(204)
  @SignedIn()
  @ApiOperation({
    summary: 'Confirm it is you: a passkey assertion or your current password',
    description:
      'Credential changes (password set or removed, passkey added or removed, publisher token created) need a session that signed in or stepped up in the last 10 minutes. This step-up starts those 10 minutes again for this session.',
  })
  @ApiNoContentResponse({ description: 'Confirmed: this session may change credentials for 10 minutes' })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'validation-failed: give exactly one of passkey and currentPassword' })
  @ApiForbiddenResponse({
    type: ProblemDto,
    description: 'step-up-failed (the passkey is not yours, or does not verify) or current-password-wrong',
  })
  @ApiTooManyRequestsResponse(PASSWORD_LIMITED)
  @ApiServiceUnavailableResponse(HASHING_BUSY)
  confirmStepUp(@Auth() auth: SessionAuthContext, @Body() body: StepUpDto, @SignInRequestParam() request: SignInRequest): Promise<void> {
    return this.stepUp.confirm(auth, body, request.ip);
  }

  @Get('passkeys')
  @SignedIn()
  @ApiOperation({ summary: 'Your passkeys' })
  @ApiOkResponse({ type: PasskeyListDto })
  list(@Auth() auth: SessionAuthContext): Promise<PasskeyListDto> {
    return this.passkeys.list(auth);
  }

  @Post('passkeys/options')
  @HttpCode(200)
  @SignedIn()
  @ApiOperation({ summary: 'Start registering a passkey: WebAuthn creation options with a fresh challenge' })
  @ApiOkResponse({ type: PasskeyOptionsDto })
  @ApiConflictResponse({ type: ProblemDto, description: 'passkey-limit-reached: 20 passkeys already' })
  @ApiForbiddenResponse(STEP_UP)
  options(@Auth() auth: SessionAuthContext): Promise<PasskeyOptionsDto> {
    return this.passkeys.registrationOptions(auth);
  }

  @Post('passkeys')
  @SignedIn()
  @ApiOperation({ summary: "Finish registering a passkey with the browser's answer" })
  @ApiCreatedResponse({ type: PasskeyDto })
  @ApiBadRequestResponse({
    type: ProblemDto,
    description: 'passkey-registration-failed: no matching registration started, or the answer does not verify',
  })
  @ApiConflictResponse({ type: ProblemDto, description: 'passkey-exists: this passkey is registered already' })
  @ApiForbiddenResponse(STEP_UP)
  register(@Auth() auth: SessionAuthContext, @Body() body: PasskeyRegistrationDto): Promise<PasskeyDto> {
    return this.passkeys.register(auth, body);
  }

  @Patch('passkeys/:id')
  @SignedIn()
  @ApiOperation({ summary: 'Rename one of your passkeys' })
  @ApiOkResponse({ type: PasskeyDto })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'You have no passkey with this id' })
  rename(@Auth() auth: SessionAuthContext, @Param('id', ParseUUIDPipe) id: string, @Body() body: PasskeyRenameDto): Promise<PasskeyDto> {
    return this.passkeys.rename(auth, id, body.name);
  }

  @Delete('passkeys/:id')
  @HttpCode(204)
  @SignedIn()
  @ApiOperation({ summary: 'Remove one of your passkeys' })
  @ApiNoContentResponse({ description: 'Removed; it signs in no more' })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'You have no passkey with this id' })
  @ApiForbiddenResponse(STEP_UP)
  remove(@Auth() auth: SessionAuthContext, @Param('id', ParseUUIDPipe) id: string): Promise<void> {
    return this.passkeys.remove(auth, id);
  }

  @Get('password')
  @SignedIn()
  @ApiOperation({ summary: 'Whether you have a password, and whether passwords are on here' })
  @ApiOkResponse({ type: PasswordStatusDto })
  passwordStatus(@Auth() auth: SessionAuthContext): Promise<PasswordStatusDto> {
    return this.password.status(auth);
  }

  @Put('password')
  @SignedIn()
  @ApiOperation({
    summary:
      'Set or change your password (local accounts; needs a step-up, or currentPassword with the request); signs you out everywhere else',
  })
  @ApiOkResponse({ type: PasswordStatusDto })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'validation-failed: too short, too long, or the login itself' })
  @ApiConflictResponse({ type: ProblemDto, description: 'password-not-local: the account signs in through a forge' })
  @ApiForbiddenResponse({
    type: ProblemDto,
    description: 'step-up-required (give currentPassword, or step up first) or current-password-wrong',
  })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'password-sign-in-off: the operator turned passwords off' })
  @ApiTooManyRequestsResponse(PASSWORD_LIMITED)
  @ApiServiceUnavailableResponse(HASHING_BUSY)
  setPassword(
    @Auth() auth: SessionAuthContext,
    @Body() body: SetPasswordDto,
    @SignInRequestParam() request: SignInRequest,
  ): Promise<PasswordStatusDto> {
    return this.password.set(auth, body, request.ip);
  }

  @Delete('password')
  @HttpCode(204)
  @SignedIn()
  @ApiOperation({ summary: 'Remove your password (sign in with a passkey or a link instead); signs you out everywhere else' })
  @ApiNoContentResponse({ description: 'Removed (or there was none)' })
  @ApiForbiddenResponse(STEP_UP)
  removePassword(@Auth() auth: SessionAuthContext): Promise<void> {
    return this.password.remove(auth);
  }
}
