import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { APP_VERSION } from '../common/app-info';
import { ProblemDto, ProblemFieldErrorDto } from './problem.dto';

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Plugin Registry')
    .setDescription(
      'Public catalogue, CI publishing, release webhooks, signed release integrity and the admin surface. ' +
        'Every error is RFC 9457 application/problem+json (schema ProblemDto).',
    )
    .setVersion(APP_VERSION)
    // Relative, so "Try it out" works from whatever host name the server is reached by.
    .addServer('/')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'Session JWT or publisher token' })
    .addCookieAuth('registry_session')
    .build();
  return SwaggerModule.createDocument(app, config, { extraModels: [ProblemDto, ProblemFieldErrorDto] });
}

/** Swagger UI at /openapi and the document at /openapi/json, from the bundled swagger-ui-dist (works offline). */
export function mountOpenApi(app: INestApplication, document: OpenAPIObject): void {
  SwaggerModule.setup('openapi', app, document, {
    jsonDocumentUrl: 'openapi/json',
    yamlDocumentUrl: 'openapi/yaml',
    customSiteTitle: 'Plugin Registry API',
  });
}
