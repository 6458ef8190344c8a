import { Body, Controller, Param, Patch, Req } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { type AuthContext, clientIp } from '../../platform/auth/auth-context';
import { AdminOnly, Auth } from '../../platform/auth/auth.decorators';
import { ProblemDto } from '../../openapi/problem.dto';
import { AdminRequestsService } from './admin-requests.service';
import { RequestDto, UpdateRequestDto } from './dto/request.dto';
import { ApiOperation } from '@nestjs/swagger';

// Not behind the `requests` flag: admins can settle the wishlist while it is hidden.
@ApiTags('admin')
@Controller('api/admin/requests')
@AdminOnly()
export class AdminRequestsController {
  constructor(private readonly requests: AdminRequestsService) {}

  @Patch(':id')
  @ApiOkResponse({ type: RequestDto, description: 'Fulfilled by a plugin, closed, or opened again (audited request.update)' })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'fulfilled without a known plugin slug, or a plugin with another status' })
  @ApiNotFoundResponse({ type: ProblemDto })
  @ApiOperation({ summary: 'Fulfil, close or reopen a plugin request' })
  update(@Auth() auth: AuthContext, @Param('id') id: string, @Body() body: UpdateRequestDto, @Req() request: Request): Promise<RequestDto> {
    return this.requests.update(auth, id, body, clientIp(request));
  }
}
