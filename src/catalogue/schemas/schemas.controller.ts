import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import { SchemasService } from './schemas.service';
import { ApiOperation } from '@nestjs/swagger';
import { ApiPublic } from '../../openapi/api-public';
import { ApiReadLimited } from '../../openapi/api-problems';

@ApiTags('manifest')
@Controller('schemas')
export class SchemasController {
  constructor(private readonly schemas: SchemasService) {}

  @Get('manifest.json')
  @Header('Content-Type', 'application/schema+json')
  @Header('Cache-Control', 'public, max-age=300')
  @ApiProduces('application/schema+json')
  @ApiOkResponse({ description: 'JSON Schema (draft 2020-12) of the plugin manifest, for `# yaml-language-server: $schema=...`' })
  @ApiOperation({ summary: 'Read the manifest JSON Schema' })
  @ApiPublic()
  @ApiReadLimited()
  manifest(): Promise<Record<string, unknown>> {
    return this.schemas.manifest();
  }
}
