import { Controller, Get, HttpCode, Post, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { UserDto } from '../users/dto/user.dto';
import type { AuthContext } from './auth-context';
import { Auth, SignedIn } from './auth.decorators';
import { AuthService } from './auth.service';
import { ProviderListDto } from './dto/provider.dto';
import { SESSION_COOKIE } from './session-tokens';
import { ApiOperation } from '@nestjs/swagger';
import { ApiPublic } from '../../openapi/api-public';
import { ApiReadLimited } from '../../openapi/api-problems';

@ApiTags('auth')
@Controller('api/auth')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Get('providers')
  @ApiOkResponse({ type: ProviderListDto, description: 'The forge instances people can sign in with (public; never their credentials)' })
  @ApiOperation({ summary: 'List the sign-in providers' })
  @ApiPublic()
  @ApiReadLimited()
  providers(): Promise<ProviderListDto> {
    return this.auth.providers();
  }

  @Get('me')
  @SignedIn()
  @ApiOkResponse({ type: UserDto })
  @ApiOperation({ summary: 'Read the signed-in user' })
  me(@Auth() auth: AuthContext): UserDto {
    return this.auth.me(auth);
  }

  @Post('logout')
  @HttpCode(204)
  @SignedIn()
  @ApiNoContentResponse({ description: 'The session is revoked on every instance and the cookie cleared' })
  @ApiOperation({ summary: 'Sign out' })
  async logout(@Auth() auth: AuthContext, @Res({ passthrough: true }) response: Response): Promise<void> {
    response.clearCookie(SESSION_COOKIE, { path: '/' });
    return this.auth.logout(auth);
  }
}
