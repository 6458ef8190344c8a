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
import { SlugPipe } from '../../common/validation/slug.pipe';
import { ProblemDto } from '../../openapi/problem.dto';
import { CreateTrustedPublisherDto, TrustedPublisherDto, TrustedPublisherListDto } from './dto/trusted-publisher.dto';
import { TrustedPublishersService } from './trusted-publishers.service';
import { ApiOperation } from '@nestjs/swagger';

@ApiTags('trusted publishing')
@Controller('api/plugins/:slug/trusted-publishers')
@SignedIn()
export class TrustedPublishersController {
  constructor(private readonly publishers: TrustedPublishersService) {}

  @Get()
  @ApiOkResponse({ type: TrustedPublisherListDto })
  @ApiForbiddenResponse({ type: ProblemDto, description: 'Not an owner of the plugin' })
  @ApiNotFoundResponse({ type: ProblemDto })
  @ApiOperation({ summary: "List a plugin's trusted publishers" })
  list(@Auth() auth: AuthContext, @Param('slug', SlugPipe) slug: string): Promise<TrustedPublisherListDto> {
    return this.publishers.list(auth, slug);
  }

  @Post()
  @ApiCreatedResponse({
    type: TrustedPublisherDto,
    description: 'CI jobs matching it can now exchange their OIDC ID token for a short-lived publisher token',
  })
  @ApiBadRequestResponse({
    type: ProblemDto,
    description: 'Unknown forge instance (or one without oidcIssuer), bad repository path or pattern',
  })
  @ApiForbiddenResponse({ type: ProblemDto, description: 'Not an owner of the plugin' })
  @ApiConflictResponse({ type: ProblemDto, description: 'The plugin has 20 trusted publishers already' })
  @ApiUnprocessableEntityResponse({
    type: ProblemDto,
    description: 'The forge has no such repository (or not under that path now), or repositoryId is not the id the forge says',
  })
  @ApiBadGatewayResponse({ type: ProblemDto, description: 'The forge could not be asked for the repository' })
  @ApiOperation({ summary: 'Add a trusted publisher' })
  add(
    @Auth() auth: AuthContext,
    @Param('slug', SlugPipe) slug: string,
    @Body() body: CreateTrustedPublisherDto,
    @Req() request: Request,
  ): Promise<TrustedPublisherDto> {
    return this.publishers.add(auth, slug, body, clientIp(request));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Removed; tokens minted from it earlier still run out within 15 minutes' })
  @ApiForbiddenResponse({ type: ProblemDto, description: 'Not an owner of the plugin' })
  @ApiNotFoundResponse({ type: ProblemDto })
  @ApiOperation({ summary: 'Remove a trusted publisher' })
  remove(
    @Auth() auth: AuthContext,
    @Param('slug', SlugPipe) slug: string,
    @Param('id') id: string,
    @Req() request: Request,
  ): Promise<void> {
    return this.publishers.remove(auth, slug, id, clientIp(request));
  }
}
