// @nestjs/swagger's metadata key for @ApiOperation (its DECORATORS constants are not exported).
const OPERATION = 'swagger/apiOperation';

/**
 * An operation anyone may call: it declares `security: []`, OpenAPI's "no credentials needed",
 * so a reader (and Redocly's `security-defined` rule) can tell it from one that forgot its scheme.
 * Use it on handlers without an auth guard; guarded ones get their schemes from `@SignedIn()`,
 * `@AdminOnly()`, `@OptionalSession()` or `@PublisherTokenAuth()`. Order-independent with
 * `@ApiOperation` (both merge into the same metadata).
 */
export function ApiPublic(): MethodDecorator {
  return (_target, _key, descriptor) => {
    const previous = (Reflect.getMetadata(OPERATION, descriptor.value as object) as Record<string, unknown> | undefined) ?? {};
    Reflect.defineMetadata(OPERATION, { ...previous, security: [] }, descriptor.value as object);
    return descriptor;
  };
}
