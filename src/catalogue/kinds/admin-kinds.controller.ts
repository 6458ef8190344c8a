import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { type AuthContext, clientIp } from '../../platform/auth/auth-context';
import { AdminOnly, Auth } from '../../platform/auth/auth.decorators';
import { ProblemDto } from '../../openapi/problem.dto';
import { AdminKindsService } from './admin-kinds.service';
import { AdminKindDto, AdminKindListDto, CreateKindDto, UpdateKindDto } from './dto/admin-kind.dto';
import { ApiOperation } from '@nestjs/swagger';

@ApiTags('admin')
@Controller('api/admin/kinds')
@AdminOnly()
export class AdminKindsController {
  constructor(private readonly kinds: AdminKindsService) {}

  @Get()
  @ApiOkResponse({ type: AdminKindListDto })
  @ApiOperation({ summary: 'List every plugin kind' })
  list(): Promise<AdminKindListDto> {
    return this.kinds.list();
  }

  @Post()
  @ApiCreatedResponse({ type: AdminKindDto, description: 'Created (audited kind.create)' })
  @ApiConflictResponse({ type: ProblemDto, description: 'The key exists' })
  @ApiUnprocessableEntityResponse({ type: ProblemDto, description: 'Extension field declarations that cannot be used' })
  @ApiOperation({ summary: 'Create a plugin kind' })
  create(@Body() body: CreateKindDto, @Auth() auth: AuthContext, @Req() request: Request): Promise<AdminKindDto> {
    return this.kinds.create(body, { userId: auth.user.id, ip: clientIp(request) });
  }

  @Put(':key')
  @ApiOkResponse({
    type: AdminKindDto,
    description: 'Changed the fields the body names; the others keep their values (audited kind.update)',
  })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'A different key in the body: the key is immutable' })
  @ApiNotFoundResponse({ type: ProblemDto })
  @ApiOperation({ summary: 'Change a plugin kind' })
  update(
    @Param('key') key: string,
    @Body() body: UpdateKindDto,
    @Auth() auth: AuthContext,
    @Req() request: Request,
  ): Promise<AdminKindDto> {
    return this.kinds.update(key, body, { userId: auth.user.id, ip: clientIp(request) });
  }

  @Delete(':key')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Removed (audited kind.delete); plugins keep the value as a free-form tag' })
  @ApiNotFoundResponse({ type: ProblemDto })
  @ApiOperation({ summary: 'Remove a plugin kind' })
  remove(@Param('key') key: string, @Auth() auth: AuthContext, @Req() request: Request): Promise<void> {
    return this.kinds.remove(key, { userId: auth.user.id, ip: clientIp(request) });
  }
}
