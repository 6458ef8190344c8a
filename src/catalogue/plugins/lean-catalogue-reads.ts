import { type ArgumentMetadata, Injectable, type ValidationPipe } from '@nestjs/common';
import { PUBLIC_ANSWER_CACHE_CONTROL } from '../../platform/auth/cache-by-caller.interceptor';
import { requestValidationPipe } from '../../common/errors/validation';
import {
  type AnswerHeaders,
  declaredHeaders,
  type LeanAnswer,
  type LeanRead,
  type LeanReads,
  type LeanRequest,
} from '../../common/http/lean-read';
import { RouteTable } from '../../common/http/route-table';
import { SlugPipe } from '../../common/validation/slug.pipe';
import { CatalogueQueryPipe } from './catalogue-query.pipe';
import { CATALOGUE_CACHE_CONTROL, CatalogueService } from './catalogue.service';
import { LatestQueryDto } from './dto/latest.dto';
import { PluginDetailQueryDto } from './dto/plugin-detail.dto';
import { LatestController } from './latest.controller';
import { LatestService } from './latest.service';
import { PluginDetailService } from './plugin-detail.service';
import { PluginsController } from './plugins.controller';

const PREFIX = '/api/plugins/';
const LIST_PATH = '/api/plugins';
const LATEST_SUFFIX = '/latest';
const DETAIL_TEMPLATE = '/api/plugins/:slug';
const LATEST_TEMPLATE = '/api/plugins/:slug/latest';
const queryOf = (metatype: ArgumentMetadata['metatype']): ArgumentMetadata => ({ type: 'query', metatype, data: undefined });
/** Validated queries kept (LeanCatalogueReads.query). */
const VALIDATED_QUERIES_KEPT = 512;
/** Queries longer than this are validated every time (and not kept). */
const VALIDATED_QUERY_MAX_LENGTH = 200;

/** The key a validated query is kept by: its DTO and its parameters, in order; null when a value is not a plain string. */
function validatedKey(metatype: new () => object, raw: Record<string, unknown>): string | null {
  let key = metatype.name;
  for (const [name, value] of Object.entries(raw)) {
    if (typeof value !== 'string') return null;
    key += `\u0000${name}\u0000${value}`;
    if (key.length > VALIDATED_QUERY_MAX_LENGTH) return null;
  }
  return key;
}

/**
 * The anonymous catalogue reads (list and search, a plugin's page, `latest`) as the catalogue
 * lane (src/catalogue-lane.ts) answers them ahead of Express: the catalogue is read a thousand
 * times for every write, and a miss spent more time in the framework's per-request machinery
 * (Express, router, guards, interceptors) than in its one database round trip.
 *
 * It answers only what it can answer exactly as the controllers would, through the same
 * services, pipes and DTOs, with the headers the controllers declare; everything else goes on to
 * the router: any other path, a path segment a route spells literally, and every error — a 400,
 * a 404, a database failure — which the controllers then answer (the read is repeated: reads are
 * safe to repeat, and errors are the rare case). test/e2e/lean-catalogue-reads.e2e.ts holds the
 * two paths equal.
 */
@Injectable()
export class LeanCatalogueReads implements LeanReads {
  private readonly validation: ValidationPipe = requestValidationPipe();
  private readonly slugs = new SlugPipe();
  private readonly catalogueQuery = new CatalogueQueryPipe();
  private readonly listHeaders = declaredHeaders(PluginsController.prototype.list);
  private readonly detailHeaders: AnswerHeaders = [
    ...declaredHeaders(PluginsController.prototype.detail),
    { name: 'Cache-Control', value: PUBLIC_ANSWER_CACHE_CONTROL },
  ];
  private readonly latestHeaders = declaredHeaders(LatestController.prototype.resolve);

  constructor(
    private readonly catalogue: CatalogueService,
    private readonly details: PluginDetailService,
    private readonly latest: LatestService,
    private readonly routes: RouteTable,
  ) {}

  /** The read that answers this request, or null when it is not one of the lean reads. */
  readFor(req: LeanRequest): LeanRead | null {
    const path = req.path;
    if (path === LIST_PATH) return { template: LIST_PATH, answer: () => this.list(req) };
    if (!path.startsWith(PREFIX)) return null;
    const rest = path.slice(PREFIX.length);
    const slash = rest.indexOf('/');
    const segment = slash < 0 ? rest : rest.slice(0, slash);
    if (segment === '' || this.routes.literalSegmentsAfter(PREFIX).has(segment)) return null;
    if (slash < 0) return { template: DETAIL_TEMPLATE, answer: () => this.detail(req, segment) };
    if (rest.slice(slash) === LATEST_SUFFIX) return { template: LATEST_TEMPLATE, answer: () => this.latestOf(req, segment) };
    return null;
  }

  private async list(req: LeanRequest): Promise<LeanAnswer> {
    const query = await this.catalogueQuery.transform(req.query);
    const { json, cacheControl } = await this.catalogue.pageJson(query);
    return {
      json,
      headers:
        cacheControl === CATALOGUE_CACHE_CONTROL
          ? this.listHeaders
          : this.listHeaders.map((h) => (h.name === 'Cache-Control' ? { name: h.name, value: cacheControl } : h)),
    };
  }

  /**
   * The query as the controller's pipe would hand it over. Most reads carry none, and a DTO whose
   * fields are all optional accepts an empty query: that case skips the validator (checked once,
   * by the validator itself, in emptyQueryPasses).
   */
  private async query<T extends object>(req: LeanRequest, metatype: new () => T): Promise<T> {
    const raw = req.query;
    if (Object.keys(raw).length === 0 && (await this.emptyQueryPasses(metatype))) return new metatype();
    const key = validatedKey(metatype, raw);
    const known = key === null ? undefined : this.validatedQueries.get(key);
    if (known) return Object.assign(new metatype(), known) as T;
    const validated = (await this.validation.transform(raw, queryOf(metatype))) as T;
    if (key !== null) {
      // Forgotten all at once when full: a crowd asking odd queries cannot grow it, and what
      // clients ask (a few platforms, a runtime or two) is back in it after one ask each.
      if (this.validatedQueries.size >= VALIDATED_QUERIES_KEPT) this.validatedQueries.clear();
      this.validatedQueries.set(key, Object.freeze({ ...validated }));
    }
    return validated;
  }

  /**
   * Queries that passed validation, by DTO and query: validating is a pure function of the two,
   * and `latest`'s `os`/`arch` (a few values every client repeats) cost more to validate with
   * class-validator than the rest of the answer's CPU but its signature.
   */
  private readonly validatedQueries = new Map<string, object>();

  private readonly emptyQueryChecks = new Map<new () => object, Promise<boolean>>();

  private emptyQueryPasses(metatype: new () => object): Promise<boolean> {
    let check = this.emptyQueryChecks.get(metatype);
    if (!check) {
      check = this.validation.transform({}, queryOf(metatype)).then(
        () => true,
        () => false,
      );
      this.emptyQueryChecks.set(metatype, check);
    }
    return check;
  }

  private async detail(req: LeanRequest, segment: string): Promise<LeanAnswer> {
    const slug = this.slugs.transform(decodeURIComponent(segment));
    const query = await this.query(req, PluginDetailQueryDto);
    return { json: await this.details.detailJson(slug, query.locale), headers: this.detailHeaders };
  }

  private async latestOf(req: LeanRequest, segment: string): Promise<LeanAnswer> {
    const slug = this.slugs.transform(decodeURIComponent(segment));
    const query = await this.query(req, LatestQueryDto);
    const answer = await this.latest.answer(
      slug,
      query,
      typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : undefined,
    );
    const extra = Object.entries(answer.headers);
    return {
      body: answer.body,
      headers: extra.length ? [...this.latestHeaders, ...extra.map(([name, value]) => ({ name, value }))] : this.latestHeaders,
    };
  }
}
