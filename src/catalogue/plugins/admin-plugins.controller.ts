import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { type AuthContext, clientIp } from '../../platform/auth/auth-context';
import { AdminOnly, Auth } from '../../platform/auth/auth.decorators';
import { SlugPipe } from '../../common/validation/slug.pipe';
import { ProblemDto } from '../../openapi/problem.dto';
import { AdminPluginsService } from './admin-plugins.service';
import { AdminPluginDto, ChangeOwnersDto } from './dto/admin-plugin.dto';
import { ApiOperation } from '@nestjs/swagger';

const actor = (auth: AuthContext, request: Request) => ({ userId: auth.user.id, ip: clientIp(request) });

@ApiTags('admin')
@Controller('api/admin/plugins/:slug')
@AdminOnly()
@ApiNotFoundResponse({ type: ProblemDto, description: 'No such plugin' })
export class AdminPluginsController {
  constructor(private readonly plugins: AdminPluginsService) {}

  @Get()
  @ApiOkResponse({ type: AdminPluginDto })
  @ApiOperation({ summary: 'Read a plugin as an admin' })
  view(@Param('slug', SlugPipe) slug: string): Promise<AdminPluginDto> {
    return this.plugins.view(slug);
  }

  @Post('verify')
  @HttpCode(200)
  @ApiOkResponse({ type: AdminPluginDto, description: 'Verified (audited plugin.verify); verified plugins lead every catalogue sort' })
  @ApiOperation({ summary: 'Mark a plugin verified' })
  verify(@Param('slug', SlugPipe) slug: string, @Auth() auth: AuthContext, @Req() request: Request): Promise<AdminPluginDto> {
    return this.plugins.setVerified(slug, true, actor(auth, request));
  }

  @Post('unverify')
  @HttpCode(200)
  @ApiOkResponse({ type: AdminPluginDto, description: 'Audited plugin.unverify' })
  @ApiOperation({ summary: "Withdraw a plugin's verified mark" })
  unverify(@Param('slug', SlugPipe) slug: string, @Auth() auth: AuthContext, @Req() request: Request): Promise<AdminPluginDto> {
    return this.plugins.setVerified(slug, false, actor(auth, request));
  }

  @Post('feature')
  @HttpCode(200)
  @ApiOkResponse({ type: AdminPluginDto, description: 'Audited plugin.feature' })
  @ApiOperation({ summary: 'Feature a plugin' })
  feature(@Param('slug', SlugPipe) slug: string, @Auth() auth: AuthContext, @Req() request: Request): Promise<AdminPluginDto> {
    return this.plugins.setFeatured(slug, true, actor(auth, request));
  }

  @Post('unfeature')
  @HttpCode(200)
  @ApiOkResponse({ type: AdminPluginDto, description: 'Audited plugin.unfeature' })
  @ApiOperation({ summary: 'Stop featuring a plugin' })
  unfeature(@Param('slug', SlugPipe) slug: string, @Auth() auth: AuthContext, @Req() request: Request): Promise<AdminPluginDto> {
    return this.plugins.setFeatured(slug, false, actor(auth, request));
  }

  @Delete('releases/:version')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Deleted (audited release.delete); publishing the same version again re-ingests it with a new JWS' })
  @ApiOperation({ summary: 'Delete a release' })
  deleteRelease(
    @Param('slug', SlugPipe) slug: string,
    @Param('version') version: string,
    @Auth() auth: AuthContext,
    @Req() request: Request,
  ): Promise<void> {
    return this.plugins.deleteRelease(slug, version, actor(auth, request));
  }

  @Post('owners')
  @HttpCode(200)
  @ApiOkResponse({ type: AdminPluginDto, description: 'Owners added, removed or transferred (audited plugin.owners_change)' })
  @ApiOperation({ summary: "Change a plugin's owners" })
  owners(
    @Param('slug', SlugPipe) slug: string,
    @Body() body: ChangeOwnersDto,
    @Auth() auth: AuthContext,
    @Req() request: Request,
  ): Promise<AdminPluginDto> {
    return this.plugins.changeOwners(slug, body, actor(auth, request));
  }
}
