import { Controller, HttpCode, Post, type RawBodyRequest, Req, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Feature } from '../../platform/site/feature.guard';
import { ProblemDto } from '../../openapi/problem.dto';
import { WebhookReceiptDto } from './dto/webhook-receipt.dto';
import { WebhookReceiverService } from './webhook-receiver.service';
import { ApiOperation } from '@nestjs/swagger';
import { ApiPublic } from '../../openapi/api-public';

@ApiTags('webhooks')
@Controller('api/webhooks')
@Feature('webhooks')
export class WebhooksController {
  constructor(private readonly receiver: WebhookReceiverService) {}

  @Post('release')
  @HttpCode(202)
  @ApiAcceptedResponse({ type: WebhookReceiptDto, description: 'A verified release or tag event, stored and queued for ingest' })
  @ApiOkResponse({
    type: WebhookReceiptDto,
    description: 'A delivery received before (processed once), or an event that publishes nothing',
  })
  @ApiNoContentResponse({ description: 'ping' })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'A body that is not JSON' })
  @ApiUnauthorizedResponse({
    type: ProblemDto,
    description:
      "No forge webhook headers, or not signed with the secret of the plugin registered for the payload's repository; nothing is stored",
  })
  @ApiOperation({ summary: 'Receive a forge release webhook' })
  @ApiPublic()
  async release(
    @Req() request: RawBodyRequest<Request>,
    @Res({ passthrough: true }) response: Response,
  ): Promise<WebhookReceiptDto | undefined> {
    const receipt = await this.receiver.receive(request.headers, request.rawBody);
    response.status(receipt.status);
    return receipt.body;
  }
}
