import { Body, Controller, Delete, Get, Header, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { AuthContext } from '../../platform/auth/auth-context';
import { Auth, SignedIn } from '../../platform/auth/auth.decorators';
import { Feature } from '../../platform/site/feature.guard';
import { ProblemDto } from '../../openapi/problem.dto';
import { CreateRequestDto, RequestDto, RequestPageDto, RequestQueryDto } from './dto/request.dto';
import { MaybeAuth, OptionalSession } from '../../platform/auth/auth.decorators';
import { RequestsService } from './requests.service';
import { UserActionLimit } from '../../platform/rate-limit/user-action-limit';
import { ApiOperation } from '@nestjs/swagger';

@ApiTags('requests')
@Controller('api/requests')
@Feature('requests')
export class RequestsController {
  constructor(private readonly requests: RequestsService) {}

  @Get()
  @OptionalSession()
  // `voted` is the caller's own, so no shared cache may keep the page.
  @Header('Cache-Control', 'private, no-cache')
  @ApiOkResponse({ type: RequestPageDto, description: 'Anyone may read; `voted` is set for a signed-in caller' })
  @ApiBadRequestResponse({ type: ProblemDto })
  @ApiOperation({ summary: 'List plugin requests' })
  list(@Query() query: RequestQueryDto, @MaybeAuth() viewer: AuthContext | null): Promise<RequestPageDto> {
    return this.requests.list(query, viewer);
  }

  @Post()
  @SignedIn()
  @UserActionLimit('wishlist-request')
  @ApiCreatedResponse({ type: RequestDto })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'A bad title or description, or a kind that is not enabled' })
  @ApiOperation({ summary: 'Request a plugin' })
  create(@Auth() auth: AuthContext, @Body() body: CreateRequestDto): Promise<RequestDto> {
    return this.requests.create(auth, body);
  }

  @Post(':id/upvote')
  @SignedIn()
  @UserActionLimit('wishlist-vote')
  @HttpCode(200)
  @ApiOkResponse({ type: RequestDto, description: 'The request with your vote counted (once, however often you ask)' })
  @ApiNotFoundResponse({ type: ProblemDto })
  @ApiConflictResponse({ type: ProblemDto, description: 'The request is fulfilled or closed' })
  @ApiOperation({ summary: 'Vote for a plugin request' })
  upvote(@Auth() auth: AuthContext, @Param('id') id: string): Promise<RequestDto> {
    return this.requests.upvote(auth, id);
  }

  @Delete(':id/upvote')
  @SignedIn()
  @UserActionLimit('wishlist-vote')
  @ApiOkResponse({ type: RequestDto, description: 'The request without your vote' })
  @ApiNotFoundResponse({ type: ProblemDto })
  @ApiOperation({ summary: 'Withdraw your vote' })
  removeUpvote(@Auth() auth: AuthContext, @Param('id') id: string): Promise<RequestDto> {
    return this.requests.removeUpvote(auth, id);
  }
}
