import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { KindListDto } from './dto/kind.dto';
import { KindsService } from './kinds.service';

@ApiTags('kinds')
@Controller('api/kinds')
export class KindsController {
  constructor(private readonly kinds: KindsService) {}

  @Get()
  @Header('Cache-Control', 'public, max-age=60')
  @ApiOkResponse({ type: KindListDto, description: 'Enabled kinds; save it for `registry validate --kinds`' })
  list(): Promise<KindListDto> {
    return this.kinds.publicList();
  }
}
