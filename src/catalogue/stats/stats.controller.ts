import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Feature } from '../../platform/site/feature.guard';
import { StatsDto } from './dto/stats.dto';
import { StatsService } from './stats.service';
import { ApiOperation } from '@nestjs/swagger';
import { ApiPublic } from '../../openapi/api-public';

@ApiTags('catalogue')
@Controller('api/stats')
@Feature('stats')
export class StatsController {
  constructor(private readonly stats: StatsService) {}

  @Get()
  @Header('Cache-Control', 'public, max-age=60')
  @ApiOkResponse({ type: StatsDto, description: 'Headline numbers, computed at most once a minute' })
  @ApiOperation({ summary: 'Read the headline numbers' })
  @ApiPublic()
  headline(): Promise<StatsDto> {
    return this.stats.headline();
  }
}
