import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { type AuthContext, clientIp } from '../../platform/auth/auth-context';
import { Auth, SignedIn } from '../../platform/auth/auth.decorators';
import { ProblemDto } from '../../openapi/problem.dto';
import { CreatedTokenDto, CreateTokenDto, TokenListDto } from './dto/token.dto';
import { TokensService } from './tokens.service';
import { ApiOperation } from '@nestjs/swagger';

@ApiTags('tokens')
@Controller('api/auth/me/tokens')
@SignedIn()
export class TokensController {
  constructor(private readonly tokens: TokensService) {}

  @Post()
  @ApiCreatedResponse({ type: CreatedTokenDto, description: 'The plaintext token, returned once, and its row' })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'Bad name, scope or expiresAt (errors lists each)' })
  @ApiConflictResponse({ type: ProblemDto, description: 'Already 50 active tokens' })
  @ApiForbiddenResponse({
    type: ProblemDto,
    description: 'step-up-required: the session signed in (or stepped up with POST /api/auth/me/step-up) more than 10 minutes ago',
  })
  @ApiOperation({
    summary: 'Create a publisher token (needs a step-up: a session that signed in or confirmed it is you in the last 10 minutes)',
  })
  create(@Auth() auth: AuthContext, @Body() body: CreateTokenDto, @Req() request: Request): Promise<CreatedTokenDto> {
    return this.tokens.create(auth, body, clientIp(request));
  }

  @Get()
  @ApiOkResponse({ type: TokenListDto })
  @ApiOperation({ summary: 'List your publisher tokens' })
  list(@Auth() auth: AuthContext): Promise<TokenListDto> {
    return this.tokens.list(auth);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Revoked; later use of the token answers 401' })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No such token of yours' })
  @ApiOperation({ summary: 'Revoke a publisher token' })
  revoke(@Auth() auth: AuthContext, @Param('id') id: string, @Req() request: Request): Promise<void> {
    return this.tokens.revoke(auth, id, clientIp(request));
  }
}
