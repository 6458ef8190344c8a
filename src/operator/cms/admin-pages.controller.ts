import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { type AuthContext, clientIp } from '../../platform/auth/auth-context';
import { AdminOnly, Auth } from '../../platform/auth/auth.decorators';
import { ProblemDto } from '../../openapi/problem.dto';
import { AdminPageDto, AdminPageListDto, CreatePageDto, PageLocaleQueryDto, UpdatePageDto } from './dto/page.dto';
import { PagesService } from './pages.service';
import { ApiOperation } from '@nestjs/swagger';

@ApiTags('admin')
@Controller('api/admin/pages')
@AdminOnly()
export class AdminPagesController {
  constructor(private readonly pages: PagesService) {}

  @Get()
  @ApiOkResponse({ type: AdminPageListDto })
  @ApiOperation({ summary: 'List content pages' })
  list(): Promise<AdminPageListDto> {
    return this.pages.list();
  }

  @Post()
  @ApiCreatedResponse({ type: AdminPageDto, description: 'Created (audited page.create)' })
  @ApiBadRequestResponse({ type: ProblemDto })
  @ApiConflictResponse({ type: ProblemDto, description: 'The page exists in that locale already' })
  @ApiOperation({ summary: 'Create a content page' })
  create(@Auth() auth: AuthContext, @Body() body: CreatePageDto, @Req() request: Request): Promise<AdminPageDto> {
    return this.pages.create(body, { userId: auth.user.id, ip: clientIp(request) });
  }

  @Put(':slug')
  @ApiOkResponse({ type: AdminPageDto, description: 'Replaced (audited page.update with before and after)' })
  @ApiBadRequestResponse({ type: ProblemDto })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No such page in that locale' })
  @ApiOperation({ summary: 'Replace a content page' })
  update(
    @Auth() auth: AuthContext,
    @Param('slug') slug: string,
    @Query() query: PageLocaleQueryDto,
    @Body() body: UpdatePageDto,
    @Req() request: Request,
  ): Promise<AdminPageDto> {
    return this.pages.update(slug, query.locale, body, { userId: auth.user.id, ip: clientIp(request) });
  }

  @Delete(':slug')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Deleted (audited page.delete)' })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No such page in that locale' })
  @ApiOperation({ summary: 'Delete a content page' })
  delete(
    @Auth() auth: AuthContext,
    @Param('slug') slug: string,
    @Query() query: PageLocaleQueryDto,
    @Req() request: Request,
  ): Promise<void> {
    return this.pages.delete(slug, query.locale, { userId: auth.user.id, ip: clientIp(request) });
  }
}
