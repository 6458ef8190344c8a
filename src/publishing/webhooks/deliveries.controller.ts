import { Controller, Get, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import type { AuthContext } from '../../platform/auth/auth-context';
import { Auth, SignedIn } from '../../platform/auth/auth.decorators';
import { Feature } from '../../platform/site/feature.guard';
import { SlugPipe } from '../../common/validation/slug.pipe';
import { ProblemDto } from '../../openapi/problem.dto';
import { DeliveriesService } from './deliveries.service';
import { DeliveryDto, DeliveryListDto, ReconcileResultDto, WebhookSecretDto } from './dto/delivery.dto';
import { ApiOperation } from '@nestjs/swagger';

@ApiTags('webhooks')
@Controller('api/plugins/:slug')
@Feature('webhooks')
@SignedIn()
@ApiNotFoundResponse({ type: ProblemDto, description: 'No such plugin (or delivery)' })
export class DeliveriesController {
  constructor(private readonly deliveries: DeliveriesService) {}

  @Get('deliveries')
  @ApiOkResponse({ type: DeliveryListDto, description: 'Recent deliveries with their outcome and reason (owners and admins)' })
  @ApiOperation({ summary: "List a plugin's webhook deliveries" })
  list(@Auth() auth: AuthContext, @Param('slug', SlugPipe) slug: string): Promise<DeliveryListDto> {
    return this.deliveries.list(auth, slug);
  }

  @Post('deliveries/:id/replay')
  @HttpCode(200)
  @ApiOkResponse({ type: DeliveryDto, description: 'The failed delivery is queued again (owners and admins)' })
  @ApiConflictResponse({ type: ProblemDto, description: 'The delivery is not failed' })
  @ApiOperation({ summary: 'Replay a failed webhook delivery' })
  replay(@Auth() auth: AuthContext, @Param('slug', SlugPipe) slug: string, @Param('id', ParseUUIDPipe) id: string): Promise<DeliveryDto> {
    return this.deliveries.replay(auth, slug, id);
  }

  @Post('deliveries/reconcile')
  @HttpCode(200)
  @ApiOkResponse({
    type: ReconcileResultDto,
    description: "The forge's recent releases the registry lacks, queued as deliveries of source reconcile (owners and admins)",
  })
  @ApiTooManyRequestsResponse({
    type: ProblemDto,
    description: 'The plugin was reconciled less than `ratelimit.reconcile_cooldown_s` seconds ago; Retry-After says when it may be again',
  })
  @ApiOperation({ summary: 'Queue the forge releases the registry lacks' })
  reconcile(@Auth() auth: AuthContext, @Param('slug', SlugPipe) slug: string): Promise<ReconcileResultDto> {
    return this.deliveries.reconcile(auth, slug);
  }

  @Post('webhook-secret')
  @HttpCode(200)
  @ApiOkResponse({
    type: WebhookSecretDto,
    description: 'A new 64-hex-character secret, shown once (owners only); the old one stops working',
  })
  @ApiOperation({ summary: "Rotate a plugin's webhook secret" })
  rotateSecret(@Auth() auth: AuthContext, @Param('slug', SlugPipe) slug: string): Promise<WebhookSecretDto> {
    return this.deliveries.rotateSecret(auth, slug);
  }
}
