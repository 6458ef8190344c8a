import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { type AuthContext, clientIp } from '../../platform/auth/auth-context';
import { AdminOnly, Auth } from '../../platform/auth/auth.decorators';
import { ProblemDto } from '../../openapi/problem.dto';
import { AddForgeDto, ForgeInstanceDto, ForgeInstanceListDto } from './dto/forge-instance.dto';
import { ForgeAdminService } from './forge-admin.service';

@ApiTags('admin')
@Controller('api/admin/forges')
@AdminOnly()
export class ForgeAdminController {
  constructor(private readonly forges: ForgeAdminService) {}

  @Get()
  @ApiOperation({
    summary: 'List the forge instances',
    description: 'Configured (FORGES), built-in and added instances, with where each comes from. Never a client id, secret or token.',
  })
  @ApiOkResponse({ type: ForgeInstanceListDto })
  list(): Promise<ForgeInstanceListDto> {
    return this.forges.list();
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Add a forge instance',
    description:
      'Live at once on every server, sign-in included (no restart). The client secret is stored encrypted with KEY_ENCRYPTION_KEY and never returned. The web and API URLs must pass the fetch policy: https, or http and private addresses only for FETCH_ALLOW_HOSTS. Audited forge.create.',
  })
  @ApiCreatedResponse({ type: ForgeInstanceDto, description: 'The instance as listed' })
  @ApiBadRequestResponse({
    type: ProblemDto,
    description: 'A field is missing or wrong, or a URL is refused by the fetch policy (errors name each field)',
  })
  @ApiConflictResponse({ type: ProblemDto, description: 'The name or web URL is taken by a configured or added instance' })
  add(@Auth() auth: AuthContext, @Body() input: AddForgeDto, @Req() request: Request): Promise<ForgeInstanceDto> {
    return this.forges.add(input, { actor: { userId: auth.user.id, ip: clientIp(request) }, via: 'admin' });
  }

  @Delete(':name')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Remove an added forge instance',
    description: 'Sign-in with it stops at once on every server; accounts made with it stay. Audited forge.delete.',
  })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No such instance' })
  @ApiConflictResponse({
    type: ProblemDto,
    description: 'The instance comes from the FORGES configuration (or is built in) and is read-only here',
  })
  remove(@Auth() auth: AuthContext, @Param('name') name: string, @Req() request: Request): Promise<void> {
    return this.forges.remove(name, { actor: { userId: auth.user.id, ip: clientIp(request) }, via: 'admin' });
  }
}
