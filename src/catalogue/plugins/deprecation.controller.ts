import { Body, Controller, Delete, Param, Put, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { type AuthContext, clientIp } from '../../platform/auth/auth-context';
import { AdminOnly, Auth, SignedIn } from '../../platform/auth/auth.decorators';
import { SlugPipe } from '../../common/validation/slug.pipe';
import { ProblemDto } from '../../openapi/problem.dto';
import { deprecationCaller, DeprecationService } from './deprecation.service';
import { DeprecatePluginDto, DeprecationStateDto } from './dto/deprecation.dto';

const DEPRECATED =
  'Deprecated (audited plugin.deprecate); the plugin sinks below every other in each catalogue sort and `latest` carries a `Deprecation` header. Sent again, it replaces the message and replacement and keeps `since`';
const UNDONE = 'No longer deprecated (audited plugin.undeprecate; nothing is written when it was not deprecated)';
const BAD_MARK =
  '`slug` not a plugin slug, `message` missing, blank, over 500 characters or holding a control character, or `replacement` not a slug';
const BAD_SLUG = '`slug` not a plugin slug';
const OWNER_FORBIDDEN =
  'Neither an owner of the plugin nor an admin, or an owner changing a deprecation an admin who is not an owner set (code admin-deprecation); both audited plugin.deprecate_denied. Also a cookie-authenticated change without Content-Type: application/json';

/** Owners (or admins) deprecate their plugin, and undo it, signed in. */
@ApiTags('plugins')
@Controller('api/plugins/:slug/deprecation')
@SignedIn()
@ApiNotFoundResponse({ type: ProblemDto, description: 'No such plugin' })
export class DeprecationController {
  constructor(private readonly deprecation: DeprecationService) {}

  @Put()
  @ApiOkResponse({ type: DeprecationStateDto, description: DEPRECATED })
  @ApiBadRequestResponse({ type: ProblemDto, description: BAD_MARK })
  @ApiUnprocessableEntityResponse({
    type: ProblemDto,
    description: '`replacement` names no plugin, this plugin, or a deprecated plugin whose replacement is this one',
  })
  @ApiForbiddenResponse({ type: ProblemDto, description: OWNER_FORBIDDEN })
  @ApiOperation({ summary: 'Deprecate a plugin you own' })
  deprecate(
    @Param('slug', SlugPipe) slug: string,
    @Body() body: DeprecatePluginDto,
    @Auth() auth: AuthContext,
    @Req() request: Request,
  ): Promise<DeprecationStateDto> {
    return this.deprecation.deprecate(deprecationCaller(auth, clientIp(request)), slug, body);
  }

  @Delete()
  @ApiOkResponse({ type: DeprecationStateDto, description: UNDONE })
  @ApiBadRequestResponse({ type: ProblemDto, description: BAD_SLUG })
  @ApiForbiddenResponse({ type: ProblemDto, description: OWNER_FORBIDDEN })
  @ApiOperation({ summary: 'Undo the deprecation of a plugin you own' })
  undeprecate(@Param('slug', SlugPipe) slug: string, @Auth() auth: AuthContext, @Req() request: Request): Promise<DeprecationStateDto> {
    return this.deprecation.undeprecate(deprecationCaller(auth, clientIp(request)), slug);
  }
}

/** The same for admins, beside the other admin plugin actions. */
@ApiTags('admin')
@Controller('api/admin/plugins/:slug/deprecation')
@AdminOnly()
@ApiNotFoundResponse({ type: ProblemDto, description: 'No such plugin' })
export class AdminDeprecationController {
  constructor(private readonly deprecation: DeprecationService) {}

  @Put()
  @ApiOkResponse({ type: DeprecationStateDto, description: DEPRECATED })
  @ApiBadRequestResponse({ type: ProblemDto, description: BAD_MARK })
  @ApiUnprocessableEntityResponse({
    type: ProblemDto,
    description: '`replacement` names no plugin, this plugin, or a deprecated plugin whose replacement is this one',
  })
  @ApiOperation({ summary: 'Deprecate a plugin as an admin' })
  deprecate(
    @Param('slug', SlugPipe) slug: string,
    @Body() body: DeprecatePluginDto,
    @Auth() auth: AuthContext,
    @Req() request: Request,
  ): Promise<DeprecationStateDto> {
    return this.deprecation.deprecate(deprecationCaller(auth, clientIp(request)), slug, body);
  }

  @Delete()
  @ApiOkResponse({ type: DeprecationStateDto, description: UNDONE })
  @ApiBadRequestResponse({ type: ProblemDto, description: BAD_SLUG })
  @ApiOperation({ summary: "Undo a plugin's deprecation as an admin" })
  undeprecate(@Param('slug', SlugPipe) slug: string, @Auth() auth: AuthContext, @Req() request: Request): Promise<DeprecationStateDto> {
    return this.deprecation.undeprecate(deprecationCaller(auth, clientIp(request)), slug);
  }
}
