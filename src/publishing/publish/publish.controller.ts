import { Body, Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { type AuthContext, clientIp } from '../../platform/auth/auth-context';
import { Auth } from '../../platform/auth/auth.decorators';
import { ProblemDto } from '../../openapi/problem.dto';
import { PublisherTokenAuth } from '../../accounts/tokens/publisher-token.guard';
import type { PublisherTokenContext } from '../../accounts/tokens/publisher-token-context';
import { PublishDto, PublishResultDto, YankDto, YankResultDto } from './dto/publish.dto';
import { PublishService } from './publish.service';
import { SlugPipe } from '../../common/validation/slug.pipe';
import { ClientGone } from '../../common/http/client-gone';
import { ApiOperation } from '@nestjs/swagger';

@ApiTags('publish')
@Controller('api/publish/:slug')
@PublisherTokenAuth()
export class PublishController {
  constructor(private readonly publishing: PublishService) {}

  @Post()
  @ApiCreatedResponse({ type: PublishResultDto, description: 'Release recorded; claimed is true on the push that created the slug' })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'Bad body, or first push without a well-formed repoUrl (not audited)' })
  @ApiForbiddenResponse({ type: ProblemDto, description: 'Token scopes do not permit it (audited plugin.publish_denied)' })
  @ApiConflictResponse({
    type: ProblemDto,
    description: 'repoUrl claimed by another slug, or version already published (audited plugin.publish_conflict)',
  })
  @ApiUnprocessableEntityResponse({
    type: ProblemDto,
    description: 'Manifest violations, every one listed in errors (audited plugin.publish_invalid)',
  })
  @ApiBadGatewayResponse({ type: ProblemDto, description: 'Fetching or hashing an asset failed (audited plugin.publish_asset_fail)' })
  @ApiOperation({ summary: 'Publish a release' })
  publish(
    @Auth() auth: AuthContext,
    @Param('slug', SlugPipe) slug: string,
    @Body() body: PublishDto,
    @Req() request: Request,
    @ClientGone() clientGone: AbortSignal,
  ): Promise<PublishResultDto> {
    // The class's PublisherTokenGuard put a PublisherTokenContext there (so in yank too).
    return this.publishing.publish(auth as PublisherTokenContext, slug, body, clientIp(request), clientGone);
  }

  @Post('yank')
  @HttpCode(200)
  @ApiOkResponse({ type: YankResultDto, description: 'Yanked (or un-yanked with undo: true)' })
  @ApiForbiddenResponse({ type: ProblemDto, description: 'Needs yank:<slug> or yank:* on an owned plugin' })
  @ApiNotFoundResponse({ type: ProblemDto })
  @ApiOperation({ summary: 'Yank or restore a release' })
  yank(
    @Auth() auth: AuthContext,
    @Param('slug', SlugPipe) slug: string,
    @Body() body: YankDto,
    @Req() request: Request,
  ): Promise<YankResultDto> {
    return this.publishing.yank(auth as PublisherTokenContext, slug, body, clientIp(request));
  }
}
