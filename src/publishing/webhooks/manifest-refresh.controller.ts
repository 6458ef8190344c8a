import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { type AuthContext, clientIp } from '../../platform/auth/auth-context';
import { AdminOnly, Auth } from '../../platform/auth/auth.decorators';
import { SlugPipe } from '../../common/validation/slug.pipe';
import { ProblemDto } from '../../openapi/problem.dto';
import { AdminPluginDto } from '../../catalogue/plugins/dto/admin-plugin.dto';
import { ManifestRefreshService } from './manifest-refresh.service';
import { ApiOperation } from '@nestjs/swagger';

@ApiTags('admin')
@Controller('api/admin/plugins/:slug')
@AdminOnly()
export class ManifestRefreshController {
  constructor(private readonly refresher: ManifestRefreshService) {}

  @Post('refresh-manifest')
  @HttpCode(200)
  @ApiOkResponse({
    type: AdminPluginDto,
    description:
      "The shown (latest) release's manifest read again from the forge and its README re-rendered at the tag; catalogue fields, the detail's metadata and README follow (audited plugin.manifest_refresh, README problems in its warnings); slug and signed releases unchanged",
  })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No such plugin' })
  @ApiConflictResponse({ type: ProblemDto, description: 'No live release, or the repository is not on a configured forge' })
  @ApiUnprocessableEntityResponse({
    type: ProblemDto,
    description: 'No manifest at the tag, or the manifest breaks the rules (`errors` lists each violation)',
  })
  @ApiBadGatewayResponse({ type: ProblemDto, description: 'The forge could not be read' })
  @ApiOperation({ summary: "Read the shown release's manifest again" })
  refresh(@Param('slug', SlugPipe) slug: string, @Auth() auth: AuthContext, @Req() request: Request): Promise<AdminPluginDto> {
    return this.refresher.refresh(slug, { userId: auth.user.id, ip: clientIp(request) });
  }
}
