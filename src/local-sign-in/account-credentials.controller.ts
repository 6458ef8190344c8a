import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Put } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiCreatedResponse, ApiForbiddenResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { SessionAuthContext } from '../auth/auth-context';
import { Auth, SignedIn } from '../auth/auth.decorators';
import { ProblemDto } from '../openapi/problem.dto';
import { AccountPasswordService } from './account-password.service';
import { PasskeyDto, PasskeyListDto, PasskeyOptionsDto, PasskeyRegistrationDto, PasskeyRenameDto } from './dto/passkey.dto';
import { PasswordStatusDto, SetPasswordDto } from './dto/password.dto';
import { PasskeysService } from './passkeys.service';

/** The signed-in user's own ways in: passkeys and (local accounts) a password. */
@ApiTags('auth')
@Controller('api/auth/me')
export class AccountCredentialsController {
  constructor(
    private readonly passkeys: PasskeysService,
    private readonly password: AccountPasswordService,
  ) {}

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
  options(@Auth() auth: SessionAuthContext): Promise<PasskeyOptionsDto> {
    return this.passkeys.registrationOptions(auth);
  }

  @Post('passkeys')
  @SignedIn()
  @ApiOperation({ summary: "Finish registering a passkey with the browser's answer" })
  @ApiCreatedResponse({ type: PasskeyDto })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'passkey-registration-failed: no matching registration started, or the answer does not verify' })
  @ApiConflictResponse({ type: ProblemDto, description: 'passkey-exists: this passkey is registered already' })
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
  @ApiOperation({ summary: 'Set or change your password (local accounts); signs you out everywhere else' })
  @ApiOkResponse({ type: PasswordStatusDto })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'validation-failed: too short, too long, or the login itself' })
  @ApiConflictResponse({ type: ProblemDto, description: 'password-not-local: the account signs in through a forge' })
  @ApiForbiddenResponse({ type: ProblemDto, description: 'current-password-required or current-password-wrong: changing a password needs the current one unless you signed in less than 10 minutes ago' })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'password-sign-in-off: the operator turned passwords off' })
  setPassword(@Auth() auth: SessionAuthContext, @Body() body: SetPasswordDto): Promise<PasswordStatusDto> {
    return this.password.set(auth, body);
  }

  @Delete('password')
  @HttpCode(204)
  @SignedIn()
  @ApiOperation({ summary: 'Remove your password (sign in with a passkey or a link instead); signs you out everywhere else' })
  @ApiNoContentResponse({ description: 'Removed (or there was none)' })
  removePassword(@Auth() auth: SessionAuthContext): Promise<void> {
    return this.password.remove(auth);
  }
}
