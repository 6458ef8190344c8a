import { Body, Controller, Get, Patch, Req } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBody, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { type AuthContext, clientIp } from '../auth/auth-context';
import { AdminOnly, Auth } from '../auth/auth.decorators';
import { ProblemDto } from '../../openapi/problem.dto';
import { type SettingsDto, settingsPatchSchema, settingsSchema } from './dto/settings.dto';
import { SettingsService } from './settings.service';
import { ApiOperation } from '@nestjs/swagger';

@ApiTags('admin')
@Controller('api/admin/settings')
@AdminOnly()
export class SettingsAdminController {
  constructor(private readonly settings: SettingsService) {}

  @Get()
  @ApiOkResponse({ schema: settingsSchema(), description: 'Every setting at its current value, and `definitions`' })
  @ApiOperation({ summary: 'Read settings' })
  view(): Promise<SettingsDto> {
    return this.settings.view();
  }

  @Patch()
  @ApiBody({ schema: settingsPatchSchema() })
  @ApiOkResponse({ schema: settingsSchema(), description: 'All settings after the change (audited settings.update)' })
  @ApiBadRequestResponse({
    type: ProblemDto,
    description: 'An unknown key or a bad value; `errors` has one entry per field at /<key>; nothing was written',
  })
  @ApiOperation({ summary: 'Change settings' })
  update(@Body() body: unknown, @Auth() auth: AuthContext, @Req() request: Request): Promise<SettingsDto> {
    return this.settings.update(body, { userId: auth.user.id, ip: clientIp(request) });
  }
}
