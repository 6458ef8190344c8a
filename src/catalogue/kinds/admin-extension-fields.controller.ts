import { Body, Controller, Get, Put, Req } from '@nestjs/common';
import { ApiOkResponse, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import type { Request } from 'express';
import { type AuthContext, clientIp } from '../../platform/auth/auth-context';
import { AdminOnly, Auth } from '../../platform/auth/auth.decorators';
import { ProblemDto } from '../../openapi/problem.dto';
import { AdminKindsService } from './admin-kinds.service';
import { ExtensionFieldsDto, PutExtensionFieldsDto } from './dto/admin-kind.dto';
import { ApiOperation } from '@nestjs/swagger';

/**
 * The extension fields every kind shares
 * (docs/decisions.md#kinds-and-extension-fields-are-declared-by-admins); per-kind ones live on the
 * kind.
 */
@ApiTags('admin')
@Controller('api/admin/extension-fields')
@AdminOnly()
export class AdminExtensionFieldsController {
  constructor(private readonly kinds: AdminKindsService) {}

  @Get()
  @ApiOkResponse({ type: ExtensionFieldsDto })
  @ApiOperation({ summary: 'Read the extension field declarations' })
  get(): Promise<ExtensionFieldsDto> {
    return this.kinds.globalFields();
  }

  @Put()
  @ApiOkResponse({ type: ExtensionFieldsDto, description: 'Replaced (audited extension_fields.update); stored releases are not rewritten' })
  @ApiUnprocessableEntityResponse({ type: ProblemDto })
  @ApiOperation({ summary: 'Replace the extension field declarations' })
  put(@Body() body: PutExtensionFieldsDto, @Auth() auth: AuthContext, @Req() request: Request): Promise<ExtensionFieldsDto> {
    return this.kinds.replaceGlobalFields(body.fields, { userId: auth.user.id, ip: clientIp(request) });
  }
}
