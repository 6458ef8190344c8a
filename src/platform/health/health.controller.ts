import { Controller, Get, Header, Res } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { LivenessDto, ReadinessDto } from './dto/health.dto';
import { HealthService } from './health.service';
import { toReadinessDto } from './health.mapper';
import { ApiOperation } from '@nestjs/swagger';
import { ApiPublic } from '../../openapi/api-public';
import { ApiMalformedBody } from '../../openapi/api-problems';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get('live')
  @Header('Cache-Control', 'no-store')
  @ApiOkResponse({ type: LivenessDto, description: 'The process is up.' })
  @ApiOperation({ summary: 'Liveness probe' })
  @ApiPublic()
  @ApiMalformedBody()
  live(): LivenessDto {
    return { status: 'ok' };
  }

  @Get('ready')
  @Header('Cache-Control', 'no-store')
  @ApiOkResponse({ type: ReadinessDto, description: 'The database answers and every migration is applied.' })
  @ApiServiceUnavailableResponse({ type: ReadinessDto, description: 'The database is unreachable or migrations are pending.' })
  @ApiOperation({ summary: 'Readiness probe' })
  @ApiPublic()
  @ApiMalformedBody()
  async ready(@Res({ passthrough: true }) response: Response): Promise<ReadinessDto> {
    const dto = toReadinessDto(await this.health.readiness());
    response.status(dto.status === 'ok' ? 200 : 503);
    return dto;
  }
}
