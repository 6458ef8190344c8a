import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ProblemDto } from '../../openapi/problem.dto';
import { ImageProxyService } from './image-proxy.service';
import { IMMUTABLE, PROXIED, sendImage } from './image-response';
import { ImagesService } from './images.service';

const WEBP_BODY = { description: 'The picture, WebP', content: { 'image/webp': { schema: { type: 'string', format: 'binary' } } } };

@ApiTags('images')
@Controller()
export class ImagesController {
  constructor(
    private readonly images: ImagesService,
    private readonly proxy: ImageProxyService,
  ) {}

  @Get('images/:file')
  @ApiOperation({ summary: 'A stored icon or screenshot encoding, by the SHA-256 of its bytes (immutable)', security: [] })
  @ApiParam({ name: 'file', description: "`<sha256>.webp`, as a plugin's `images` field gives it", example: `${'0'.repeat(64)}.webp` })
  @ApiOkResponse(WEBP_BODY)
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No stored picture has this hash' })
  async image(@Param('file') file: string, @Req() request: Request, @Res() response: Response): Promise<void> {
    sendImage(request, response, await this.images.image(file), IMMUTABLE);
  }

  @Get('image-proxy')
  @ApiOperation({
    summary: 'An image a rendered README shows, fetched and re-encoded by the registry (only addresses the registry signed)',
    security: [],
  })
  @ApiQuery({ name: 'url', required: true, type: String, description: 'The image URL the README named (absolute http or https)' })
  @ApiQuery({
    name: 'sig',
    required: true,
    type: String,
    description: "Hex HMAC-SHA256 of `url` with the registry's proxy key, written by the README renderer",
  })
  @ApiOkResponse(WEBP_BODY)
  @ApiForbiddenResponse({ type: ProblemDto, description: 'The signature is missing or does not match the URL (image-signature-invalid)' })
  @ApiUnprocessableEntityResponse({
    type: ProblemDto,
    description:
      'What the URL serves is not a PNG, JPEG, GIF, WebP or AVIF picture, or is too many pixels (image-refused; remembered 10 minutes)',
  })
  @ApiBadGatewayResponse({
    type: ProblemDto,
    description:
      'The image could not be fetched: a status, a timeout, over min(images.max_bytes, 5 MiB), or an address that is refused (image-fetch-failed; remembered 10 minutes)',
  })
  @ApiServiceUnavailableResponse({
    type: ProblemDto,
    description: 'The proxy is fetching 4 images and 32 more are waiting (image-proxy-busy); Retry-After says when to try again',
  })
  async proxied(@Query('url') url: unknown, @Query('sig') sig: unknown, @Req() request: Request, @Res() response: Response): Promise<void> {
    sendImage(request, response, await this.proxy.proxied(url, sig), PROXIED);
  }
}
