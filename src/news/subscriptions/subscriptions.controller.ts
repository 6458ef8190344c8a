import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { type AuthContext, clientIp } from '../../platform/auth/auth-context';
import { Auth, SignedIn } from '../../platform/auth/auth.decorators';
import { PageQueryDto } from '../../common/validation/page-query.dto';
import { ProblemDto } from '../../openapi/problem.dto';
import { UserActionLimit } from '../../platform/rate-limit/user-action-limit';
import {
  CreatedSubscriptionDto,
  CreateSubscriptionDto,
  PingResultDto,
  SubscriptionDeliveryDto,
  SubscriptionDeliveryListDto,
  SubscriptionDto,
  SubscriptionListDto,
} from './dto/subscription.dto';
import { SubscriptionsService } from './subscriptions.service';

@ApiTags('subscriptions')
@Controller('api/account/subscriptions')
@SignedIn()
export class SubscriptionsController {
  constructor(private readonly subscriptions: SubscriptionsService) {}

  @Post()
  @ApiCreatedResponse({ type: CreatedSubscriptionDto, description: 'The subscription and its signing secret, shown once' })
  @ApiBadRequestResponse({
    type: ProblemDto,
    description:
      'Bad url (not https, a private or loopback address whose host SUBSCRIPTION_ALLOW_HOSTS does not name, unknown host), events, scope or target (errors names each)',
  })
  @ApiForbiddenResponse({ type: ProblemDto, description: 'An operational event type or scope registry, and the caller is no admin' })
  @ApiConflictResponse({ type: ProblemDto, description: 'Already 25 subscriptions' })
  @ApiOperation({ summary: 'Subscribe a URL to events' })
  create(@Auth() auth: AuthContext, @Body() body: CreateSubscriptionDto, @Req() request: Request): Promise<CreatedSubscriptionDto> {
    return this.subscriptions.create(auth, body, clientIp(request));
  }

  @Get()
  @ApiOkResponse({ type: SubscriptionListDto })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'Never for this route; listed for the problem format' })
  @ApiOperation({ summary: 'List your webhook subscriptions' })
  list(@Auth() auth: AuthContext): Promise<SubscriptionListDto> {
    return this.subscriptions.list(auth);
  }

  @Get(':id')
  @ApiOkResponse({ type: SubscriptionDto })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No such subscription of yours' })
  @ApiOperation({ summary: 'Show a webhook subscription' })
  get(@Auth() auth: AuthContext, @Param('id') id: string): Promise<SubscriptionDto> {
    return this.subscriptions.get(auth, id);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Deleted with its delivery log; nothing more is sent' })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No such subscription of yours' })
  @ApiOperation({ summary: 'Delete a webhook subscription' })
  remove(@Auth() auth: AuthContext, @Param('id') id: string, @Req() request: Request): Promise<void> {
    return this.subscriptions.remove(auth, id, clientIp(request));
  }

  @Post(':id/enable')
  @HttpCode(200)
  @ApiOkResponse({ type: SubscriptionDto, description: 'Enabled again; its queued deliveries go out' })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No such subscription of yours' })
  @ApiConflictResponse({ type: ProblemDto, description: 'It is not disabled' })
  @ApiOperation({ summary: 'Enable a disabled webhook subscription' })
  enable(@Auth() auth: AuthContext, @Param('id') id: string, @Req() request: Request): Promise<SubscriptionDto> {
    return this.subscriptions.enable(auth, id, clientIp(request));
  }

  @Get(':id/deliveries')
  @ApiOkResponse({ type: SubscriptionDeliveryListDto, description: 'Newest first' })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'Bad page or limit' })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No such subscription of yours' })
  @ApiOperation({ summary: "List a webhook subscription's deliveries" })
  deliveries(@Auth() auth: AuthContext, @Param('id') id: string, @Query() query: PageQueryDto): Promise<SubscriptionDeliveryListDto> {
    return this.subscriptions.listDeliveries(auth, id, query.page ?? 1, query.limit ?? 20);
  }

  @Post(':id/deliveries/:deliveryId/replay')
  @HttpCode(200)
  // Shares the ping's bucket: a replay sends at once, like a ping.
  @UserActionLimit('subscription-ping')
  @ApiOkResponse({ type: SubscriptionDeliveryDto, description: 'Queued again now, with the same webhook-id' })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No such subscription of yours, or no such delivery of it' })
  @ApiConflictResponse({
    type: ProblemDto,
    description: 'The delivery has not finished (queued or under way): only a succeeded or failed one is replayed',
  })
  @ApiOperation({ summary: 'Replay a webhook subscription delivery' })
  replay(@Auth() auth: AuthContext, @Param('id') id: string, @Param('deliveryId') deliveryId: string): Promise<SubscriptionDeliveryDto> {
    return this.subscriptions.replay(auth, id, deliveryId);
  }

  @Post(':id/ping')
  @HttpCode(200)
  @UserActionLimit('subscription-ping')
  @ApiOkResponse({
    type: PingResultDto,
    description: "A signed webhook.ping was sent; the receiver's status and the time taken, never its answer's body",
  })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No such subscription of yours' })
  @ApiConflictResponse({ type: ProblemDto, description: 'Its signing secret cannot be opened (was KEY_ENCRYPTION_KEY changed?)' })
  @ApiOperation({ summary: 'Send a test ping to a webhook subscription' })
  ping(@Auth() auth: AuthContext, @Param('id') id: string): Promise<PingResultDto> {
    return this.subscriptions.ping(auth, id);
  }
}
