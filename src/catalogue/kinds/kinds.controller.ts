import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { KindListDto } from './dto/kind.dto';
import { KindsService } from './kinds.service';
import { ApiOperation } from '@nestjs/swagger';
import { ApiPublic } from '../../openapi/api-public';
import { ApiReadLimited } from '../../openapi/api-problems';

@ApiTags('kinds')
@Controller('api/kinds')
export class KindsController {
  constructor(private readonly kinds: KindsService) {}

  @Get()
  @Header('Cache-Control', 'public, max-age=60')
  @ApiOkResponse({ type: KindListDto, description: 'Enabled kinds; save it for `registry validate --kinds`' })
  @ApiOperation({ summary: 'List the enabled plugin kinds' })
  @ApiPublic()
  @ApiReadLimited()
  list(): Promise<KindListDto> {
    return this.kinds.publicList();
  }
}
