import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { APP_VERSION } from '../common/app-info';
import { ProblemDto, ProblemFieldErrorDto } from './problem.dto';

const PROBLEM_REF = '#/components/schemas/ProblemDto';

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Plugin Registry')
    .setDescription(
      'Public catalogue, CI publishing, release webhooks, signed release integrity and the admin surface. ' +
        'Every error is RFC 9457 application/problem+json (schema ProblemDto). ' +
        'Operations with `security: []` need no credentials; the others name the schemes they accept.',
    )
    .setVersion(APP_VERSION)
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    // Relative, so "Try it out" works from whatever host name the server is reached by.
    .addServer('/')
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      description:
        'A session JWT (`registry sessions issue`, sign-in with `?format=json`), a publisher token (`prt_…`), or, for the install wizard, the bootstrap token',
    })
    .addCookieAuth('registry_session', {
      type: 'apiKey',
      in: 'cookie',
      name: 'registry_session',
      description: 'The session cookie a web sign-in sets',
    })
    .build();
  const document = SwaggerModule.createDocument(app, config, { extraModels: [ProblemDto, ProblemFieldErrorDto] });
  return withProblemMediaType(document);
}

/**
 * `@ApiXxxResponse({ type: ProblemDto })` documents a body as application/json; the server sends
 * errors as application/problem+json (RFC 9457), so error responses say so.
 */
function withProblemMediaType(document: OpenAPIObject): OpenAPIObject {
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(
      item as Record<string, { responses?: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }> }>,
    )) {
      for (const [status, response] of Object.entries(operation?.responses ?? {})) {
        const json = response.content?.['application/json'];
        if (!/^[45]/.test(status) || json?.schema?.$ref !== PROBLEM_REF) continue;
        response.content = { 'application/problem+json': json };
      }
    }
  }
  return document;
}

/**
 * Swagger UI at /openapi and the document at /openapi/json, from the bundled swagger-ui-dist
 * (works offline). `document` is called at the first request for it, not at start: scanning every
 * controller took about 220 ms of a start that a restarted instance under load must keep short.
 */
export function mountOpenApi(app: INestApplication, document: () => OpenAPIObject): void {
  SwaggerModule.setup('openapi', app, document, {
    jsonDocumentUrl: 'openapi/json',
    yamlDocumentUrl: 'openapi/yaml',
    customSiteTitle: 'Plugin Registry API',
  });
}
