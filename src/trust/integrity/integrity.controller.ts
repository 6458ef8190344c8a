import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { KeySetDto } from './dto/key-set.dto';
import { toKeySetDto } from './integrity.mapper';
import { IntegrityService } from './integrity.service';
import { ApiPublic } from '../../openapi/api-public';
import { ApiReadLimited } from '../../openapi/api-problems';

@ApiTags('integrity')
@Controller('.well-known')
export class IntegrityController {
  constructor(private readonly integrity: IntegrityService) {}

  @Get('registry-key.json')
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({
    summary: 'The key set releases are signed with',
    description:
      'The current Ed25519 key, then the previous one, then (while its releases are re-signed after a rotation) the key being drained. Clients cache it and refresh once when a release names an unknown kid.',
  })
  @ApiOkResponse({
    type: KeySetDto,
    description:
      'The key set (JWKS): current key first, then previous, then any key still draining (its releases are being re-signed), newest first.',
  })
  @ApiPublic()
  @ApiReadLimited()
  async keySet(): Promise<KeySetDto> {
    return toKeySetDto(await this.integrity.keySet());
  }
}
