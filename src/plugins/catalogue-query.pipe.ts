import { Injectable, type PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { badRequest, type ProblemFieldError } from '../common/errors/domain-error';
import { flattenValidationErrors, REQUEST_VALIDATOR_OPTIONS } from '../common/errors/validation';
import { EXTENSION_KEY_PATTERN } from '../lib/manifest';
import { CatalogueQueryDto } from './dto/catalogue.dto';

export interface CatalogueQuery extends CatalogueQueryDto {
  /** `ext.<key>=<value>` filters, combined with AND. */
  ext: Record<string, string>;
}

const MAX_EXT_FILTERS = 8;

/**
 * Reads `GET /api/plugins`'s query: the named parameters as CatalogueQueryDto (unknown ones
 * refused), and any number of `ext.<key>` filters, whose keys are whatever the registry declares.
 */
@Injectable()
export class CatalogueQueryPipe implements PipeTransform<Record<string, unknown>, Promise<CatalogueQuery>> {
  async transform(raw: Record<string, unknown>): Promise<CatalogueQuery> {
    const named: Record<string, unknown> = {};
    const ext: Record<string, string> = {};
    const errors: ProblemFieldError[] = [];
    for (const [name, value] of Object.entries(raw ?? {})) {
      if (!name.startsWith('ext.')) {
        named[name] = value;
        continue;
      }
      const key = name.slice(4);
      const path = `/${name}`;
      if (!EXTENSION_KEY_PATTERN.test(key)) errors.push({ path, message: `${name}: the key must match ${EXTENSION_KEY_PATTERN.source}` });
      else if (typeof value !== 'string' || value.length === 0 || value.length > 200) errors.push({ path, message: `${name}: must be given once, 1 to 200 characters` });
      else ext[key] = value;
    }
    if (Object.keys(ext).length > MAX_EXT_FILTERS) errors.push({ path: '/ext', message: `ext: at most ${MAX_EXT_FILTERS} ext.* filters` });
    const dto = plainToInstance(CatalogueQueryDto, named);
    errors.push(...flattenValidationErrors(await validate(dto, REQUEST_VALIDATOR_OPTIONS)));
    if (errors.length) throw badRequest('validation-failed', `the query has ${errors.length} invalid parameter(s)`, errors);
    return Object.assign(dto, { ext });
  }
}
