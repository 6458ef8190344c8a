import { Injectable, type PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { badRequest, type ProblemFieldError } from '../../common/errors/domain-error';
import { flattenValidationErrors, REQUEST_VALIDATOR_OPTIONS } from '../../common/errors/validation';
import { EXTENSION_KEY_PATTERN } from '../../lib/manifest';
import { MAX_LIMIT, MAX_PAGE } from '../../common/validation/page-query.dto';
import { CATALOGUE_SORTS, CatalogueQueryDto, FACETS_VALUES } from './dto/catalogue.dto';

export interface CatalogueQuery extends CatalogueQueryDto {
  /** `ext.<key>=<value>` filters, combined with AND. */
  ext: Record<string, string>;
}

const MAX_EXT_FILTERS = 8;

/** Whether the query asks for facet counts (`facets=1` or `true`). */
export function wantsFacets(query: CatalogueQueryDto): boolean {
  return query.facets === '1' || query.facets === 'true';
}

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
      else if (typeof value !== 'string' || value.length === 0 || value.length > 200)
        errors.push({ path, message: `${name}: must be given once, 1 to 200 characters` });
      else ext[key] = value;
    }
    if (Object.keys(ext).length > MAX_EXT_FILTERS) errors.push({ path: '/ext', message: `ext: at most ${MAX_EXT_FILTERS} ext.* filters` });
    let dto = readPlainly(named);
    if (!dto) {
      dto = plainToInstance(CatalogueQueryDto, named);
      errors.push(...flattenValidationErrors(await validate(dto, REQUEST_VALIDATOR_OPTIONS)));
    }
    if (errors.length) throw badRequest('validation-failed', `the query has ${errors.length} invalid parameter(s)`, errors);
    return Object.assign(dto, { ext });
  }
}

/** Each named parameter's value as CatalogueQueryDto's decorators accept it, or undefined. */
const PLAIN_READS: Record<string, (value: string) => string | number | undefined> = {
  // `length` counts UTF-16 units, never fewer than MaxLength's characters: within it, within MaxLength.
  search: (value) => (value.length <= 100 ? value : undefined),
  category: (value) => (value.length <= 40 ? value : undefined),
  tag: (value) => (value.length <= 30 ? value : undefined),
  kind: (value) => (value.length <= 40 ? value : undefined),
  featured: (value) => (value === '1' ? value : undefined),
  verified: (value) => (value === '1' ? value : undefined),
  sort: (value) => ((CATALOGUE_SORTS as readonly string[]).includes(value) ? value : undefined),
  facets: (value) => ((FACETS_VALUES as readonly string[]).includes(value) ? value : undefined),
  page: (value) => decimalWithin(value, MAX_PAGE),
  limit: (value) => decimalWithin(value, MAX_LIMIT),
};

function decimalWithin(value: string, max: number): number | undefined {
  if (!/^[0-9]{1,9}$/.test(value)) return undefined;
  const n = Number(value);
  return n >= 1 && n <= max ? n : undefined;
}

/**
 * The query as the validator would read it, when reading it takes no validator: every parameter
 * one it knows, given once, and accepted by the checks above (the decorators' rules, spelled
 * out). Anything else — an unknown or repeated parameter, a value out of bounds — is null, and
 * the validator reads it and words its errors. The catalogue lane reads a query for every page;
 * the validator cost a tenth of a page's server time. catalogue-query.pipe.spec.ts holds both
 * readings equal.
 */
export function readPlainly(named: Record<string, unknown>): CatalogueQueryDto | null {
  const dto = new CatalogueQueryDto() as unknown as Record<string, unknown>;
  for (const name of Object.keys(named)) {
    const value = named[name];
    const read = Object.hasOwn(PLAIN_READS, name) && typeof value === 'string' ? PLAIN_READS[name](value) : undefined;
    if (read === undefined) return null;
    dto[name] = read;
  }
  return dto as CatalogueQueryDto;
}
