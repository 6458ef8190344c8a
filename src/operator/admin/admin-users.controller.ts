import { Body, Controller, Get, Param, Patch, Query, Req } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { type AuthContext, clientIp } from '../../platform/auth/auth-context';
import { AdminOnly, Auth } from '../../platform/auth/auth.decorators';
import { ProblemDto } from '../../openapi/problem.dto';
import { AdminUsersService } from './admin-users.service';
import { AdminUserDto, AdminUserPageDto, UpdateUserDto, UserListQueryDto } from './dto/admin-users.dto';
import { ApiOperation } from '@nestjs/swagger';

@ApiTags('admin')
@Controller('api/admin/users')
@AdminOnly()
export class AdminUsersController {
  constructor(private readonly users: AdminUsersService) {}

  @Get()
  @ApiOkResponse({ type: AdminUserPageDto, description: 'Oldest first' })
  @ApiOperation({ summary: 'List users' })
  list(@Query() query: UserListQueryDto): Promise<AdminUserPageDto> {
    return this.users.list(query);
  }

  @Patch(':id')
  @ApiOkResponse({ type: AdminUserDto, description: 'The user after the change (audited user.role_change, user.disable, user.enable)' })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No such user' })
  @ApiConflictResponse({ type: ProblemDto, description: 'The change would leave no enabled admin (last-admin)' })
  @ApiOperation({ summary: "Change a user's role or status" })
  update(@Auth() auth: AuthContext, @Param('id') id: string, @Body() input: UpdateUserDto, @Req() request: Request): Promise<AdminUserDto> {
    return this.users.update(auth, id, input, clientIp(request));
  }
}
