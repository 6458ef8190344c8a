import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiFoundResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiQuery,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ProblemDto } from '../../../openapi/problem.dto';
import { OAuthLoginQueryDto } from '../dto/oauth-login-query.dto';
import { SessionIssuedDto } from '../dto/session-issued.dto';
import { OAuthService } from './oauth.service';
import { ApiOperation } from '@nestjs/swagger';
import { ApiPublic } from '../../../openapi/api-public';

@ApiTags('auth')
@Controller('auth')
export class OAuthController {
  constructor(private readonly oauth: OAuthService) {}

  @Get(':instance/login')
  @ApiFoundResponse({ description: "Redirect to the forge's authorization page (with a state cookie)" })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No sign-in configured for that forge instance' })
  @ApiOperation({ summary: 'Start signing in with a forge' })
  @ApiPublic()
  login(
    @Param('instance') instance: string,
    @Query() query: OAuthLoginQueryDto,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    return this.oauth.login(instance, query.access, request, response);
  }

  @Get(':instance/callback')
  @ApiQuery({ name: 'format', required: false, enum: ['json'], description: 'Answer {token, user} instead of redirecting to /' })
  @ApiFoundResponse({ description: 'Signed in: session cookie set, redirect to /' })
  @ApiOkResponse({ type: SessionIssuedDto, description: 'Signed in (format=json)' })
  @ApiUnauthorizedResponse({
    type: ProblemDto,
    description: 'State mismatch, a state already used or expired, or a code the forge refused (invalid_grant); no session cookie',
  })
  @ApiBadGatewayResponse({ type: ProblemDto, description: "The forge is unreachable, failed (5xx), or refused this registry's OAuth app" })
  @ApiOperation({ summary: 'Finish signing in with a forge' })
  @ApiPublic()
  callback(@Param('instance') instance: string, @Req() request: Request, @Res() response: Response): Promise<void> {
    return this.oauth.callback(instance, request, response);
  }
}
