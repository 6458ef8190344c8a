import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { type AuthContext, clientIp } from '../../platform/auth/auth-context';
import { Auth, SignedIn } from '../../platform/auth/auth.decorators';
import { ProblemDto } from '../../openapi/problem.dto';
import { CreatePendingPublisherDto, PendingPublisherDto, PendingPublisherListDto } from './dto/trusted-publisher.dto';
import { PendingPublishersService } from './pending-publishers.service';
import { ApiOperation } from '@nestjs/swagger';

/** Beside the caller's publisher tokens: both are the signed-in user's ways to publish. */
@ApiTags('trusted publishing')
@Controller('api/auth/me/pending-publishers')
@SignedIn()
export class PendingPublishersController {
  constructor(private readonly pending: PendingPublishersService) {}

  @Get()
  @ApiOkResponse({ type: PendingPublisherListDto })
  @ApiOperation({ summary: 'List your pending trusted publishers' })
  list(@Auth() auth: AuthContext): Promise<PendingPublisherListDto> {
    return this.pending.list(auth);
  }

  @Post()
  @ApiCreatedResponse({
    type: PendingPublisherDto,
    description:
      "The first matching OIDC push claims the slug for you and turns this into its trusted publisher. Registered with proof that you administer the repository, it displaces another user's entry for the repository made without that proof",
  })
  @ApiBadRequestResponse({
    type: ProblemDto,
    description: 'Unknown forge instance (or one without oidcIssuer), bad slug, repository path or pattern',
  })
  @ApiForbiddenResponse({ type: ProblemDto, description: 'Claiming a repository on a sign-in instance needs proof that you administer it' })
  @ApiConflictResponse({
    type: ProblemDto,
    description: 'The slug exists, the repository anchors another slug, or another pending publisher holds either',
  })
  @ApiUnprocessableEntityResponse({
    type: ProblemDto,
    description: 'The forge has no such repository (or not under that path now), or repositoryId is not the id the forge says',
  })
  @ApiBadGatewayResponse({ type: ProblemDto, description: 'The forge could not be asked for the repository' })
  @ApiOperation({ summary: 'Add a pending trusted publisher' })
  add(@Auth() auth: AuthContext, @Body() body: CreatePendingPublisherDto, @Req() request: Request): Promise<PendingPublisherDto> {
    return this.pending.add(auth, body, clientIp(request));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No such pending publisher of yours' })
  @ApiOperation({ summary: 'Remove a pending trusted publisher' })
  remove(@Auth() auth: AuthContext, @Param('id') id: string, @Req() request: Request): Promise<void> {
    return this.pending.remove(auth, id, clientIp(request));
  }
}
