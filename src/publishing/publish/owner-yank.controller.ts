import { Body, Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { type AuthContext, clientIp, type SessionAuthContext } from '../../platform/auth/auth-context';
import { Auth, SignedIn } from '../../platform/auth/auth.decorators';
import { SlugPipe } from '../../common/validation/slug.pipe';
import { ProblemDto } from '../../openapi/problem.dto';
import { YankDto, YankResultDto } from './dto/publish.dto';
import { PublishService } from './publish.service';

/** Yank and un-yank for an owner signed in on the web (the account page's buttons); CI uses POST /api/publish/{slug}/yank. */
@ApiTags('plugins')
@Controller('api/plugins/:slug/yank')
@SignedIn()
export class OwnerYankController {
  constructor(private readonly publishing: PublishService) {}

  @Post()
  @HttpCode(200)
  @ApiOkResponse({
    type: YankResultDto,
    description: 'Yanked, with the reason shown beside the release (or un-yanked with undo: true); audited plugin.yank / plugin.unyank',
  })
  @ApiForbiddenResponse({
    type: ProblemDto,
    description: 'Not an owner of the plugin (audited), or a cookie-authenticated change without Content-Type: application/json',
  })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No such plugin or release' })
  @ApiOperation({ summary: 'Yank or restore a release of a plugin you own' })
  yank(
    @Auth() auth: AuthContext,
    @Param('slug', SlugPipe) slug: string,
    @Body() body: YankDto,
    @Req() request: Request,
  ): Promise<YankResultDto> {
    // @SignedIn() lets only sessions through.
    return this.publishing.yankAsOwner(auth as SessionAuthContext, slug, body, clientIp(request));
  }
}
