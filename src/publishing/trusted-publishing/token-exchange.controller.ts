import { Body, Controller, Post, Req } from '@nestjs/common';
import { ApiBadGatewayResponse, ApiCreatedResponse, ApiForbiddenResponse, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { Request } from 'express';
import { clientIp } from '../../platform/auth/auth-context';
import { ProblemDto } from '../../openapi/problem.dto';
import { OidcTokenRequestDto, OidcTokenResultDto } from './dto/oidc-token.dto';
import { TokenExchangeService } from './token-exchange.service';
import { ApiOperation } from '@nestjs/swagger';
import { ApiPublic } from '../../openapi/api-public';

/** No credential but the ID token in the body: it is the proof. */
@ApiTags('trusted publishing')
@Controller('api/publish/oidc')
export class TokenExchangeController {
  constructor(private readonly exchange: TokenExchangeService) {}

  @Post('token')
  @ApiCreatedResponse({
    type: OidcTokenResultDto,
    description: 'A 15-minute publisher token for the plugins whose trusted publishers match the CI job',
  })
  @ApiUnauthorizedResponse({
    type: ProblemDto,
    description: 'The ID token does not verify: unknown issuer, signature, algorithm, audience, expiry, or a jti used before',
  })
  @ApiForbiddenResponse({
    type: ProblemDto,
    description: 'The ID token is valid but no trusted or pending publisher matches its repository, workflow, ref and environment',
  })
  @ApiBadGatewayResponse({ type: ProblemDto, description: "The issuer's discovery document or key set could not be read (try again)" })
  @ApiOperation({ summary: 'Exchange a CI OIDC token for a publisher token' })
  @ApiPublic()
  token(@Body() body: OidcTokenRequestDto, @Req() request: Request): Promise<OidcTokenResultDto> {
    return this.exchange.exchange(body, clientIp(request));
  }
}
