import { applyDecorators } from '@nestjs/common';
import { ApiQuery, type ApiQueryOptions } from '@nestjs/swagger';

// @nestjs/swagger's metadata keys for @ApiProperty (its DECORATORS constants are not exported).
const PROPERTY_NAMES = 'swagger/apiModelPropertiesArray';
const PROPERTY = 'swagger/apiModelProperties';

/**
 * One `@ApiQuery` per documented property of a query DTO, for handlers whose query a custom pipe
 * reads (the parameter's type is then no class the document could be built from).
 */
export function ApiQueryFrom(dto: abstract new () => object): MethodDecorator {
  const names = (Reflect.getMetadata(PROPERTY_NAMES, dto.prototype) as string[] | undefined) ?? [];
  return applyDecorators(
    ...names.map((entry) => {
      const name = entry.replace(/^:/, '');
      const property = Reflect.getMetadata(PROPERTY, dto.prototype, name) as Record<string, unknown>;
      return ApiQuery({ ...property, name, required: property.required === true } as ApiQueryOptions);
    }),
  );
}
