import { type ArgumentMetadata, Injectable, type ValidationPipe } from '@nestjs/common';
import { HEADERS_METADATA } from '@nestjs/common/constants';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { carriesCredentials } from '../auth/auth-context';
import { requestValidationPipe } from '../common/errors/validation';
import { PUBLIC_ANSWER_CACHE_CONTROL } from '../common/http/cache-by-caller.interceptor';
import { RouteTable } from '../common/http/route-table';
import { SlugPipe } from '../common/validation/slug.pipe';
import { CatalogueQueryPipe } from './catalogue-query.pipe';
import { CatalogueService } from './catalogue.service';
import { LatestQueryDto } from './dto/latest.dto';
import { PluginDetailQueryDto } from './dto/plugin-detail.dto';
import { LatestController } from './latest.controller';
import { LatestService } from './latest.service';
import { PluginDetailService } from './plugin-detail.service';
import { PluginsController } from './plugins.controller';

type Headers = readonly { name: string; value: string }[];

/** The headers a controller method declares with `@Header`: one source for both paths. */
function declaredHeaders(method: (...args: never[]) => unknown): Headers {
  return (Reflect.getMetadata(HEADERS_METADATA, method) as Headers | undefined) ?? [];
}

interface Answer {
  body: unknown;
  headers: Headers;
}

interface Read {
  /** The route it stands in for, as the router would name it (metrics label by it). */
  template: string;
  answer(): Promise<Answer>;
}

const PREFIX = '/api/plugins/';
const LIST_PATH = '/api/plugins';
const LATEST_SUFFIX = '/latest';
const DETAIL_TEMPLATE = '/api/plugins/:slug';
const LATEST_TEMPLATE = '/api/plugins/:slug/latest';
const queryOf = (metatype: ArgumentMetadata['metatype']): ArgumentMetadata => ({ type: 'query', metatype, data: undefined });

/**
 * The anonymous catalogue reads (list and search, a plugin's page, `latest`), answered ahead of
 * Nest's router: the catalogue is read a thousand times for every write, and a miss spent more
 * time in the framework's per-request machinery (router, guards, interceptors, the full access
 * line) than in its one database round trip.
 *
 * It answers only what it can answer exactly as the controllers would, through the same
 * services, pipes and DTOs, with the headers the controllers declare; everything else goes on to
 * the router untouched: a caller with credentials (whose answer may differ), any other method or
 * path, a path segment a route spells literally, and every error — a 400, a 404, a database
 * failure — which the controllers then answer (the read is repeated: reads are safe to repeat,
 * and errors are the rare case). test/e2e/lean-catalogue-reads.e2e.ts holds the two paths equal.
 */
@Injectable()
export class LeanCatalogueReads {
  private readonly validation: ValidationPipe = requestValidationPipe();
  private readonly slugs = new SlugPipe();
  private readonly catalogueQuery = new CatalogueQueryPipe();
  private readonly listHeaders = declaredHeaders(PluginsController.prototype.list);
  private readonly detailHeaders: Headers = [...declaredHeaders(PluginsController.prototype.detail), { name: 'Cache-Control', value: PUBLIC_ANSWER_CACHE_CONTROL }];
  private readonly latestHeaders = declaredHeaders(LatestController.prototype.resolve);

  constructor(
    private readonly catalogue: CatalogueService,
    private readonly details: PluginDetailService,
    private readonly latest: LatestService,
    private readonly routes: RouteTable,
  ) {}

  /** The middleware; `logAnswer` writes the access line of each answer it gives. */
  handler(logAnswer: (req: Request, res: Response, startedAt: bigint) => void): RequestHandler {
    return (req: Request, res: Response, next: NextFunction): void => {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || carriesCredentials(req)) return next();
      const read = this.readFor(req);
      if (!read) return next();
      const startedAt = process.hrtime.bigint();
      read.answer().then(
        ({ body, headers }) => {
          res.locals.routeTemplate = read.template;
          for (const { name, value } of headers) res.setHeader(name, value);
          // res.json as Nest's adapter replies: the same ETag, the same 304 for If-None-Match.
          res.json(body);
          logAnswer(req, res, startedAt);
        },
        () => next(),
      );
    };
  }

  private readFor(req: Request): Read | null {
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

  private async list(req: Request): Promise<Answer> {
    const query = await this.catalogueQuery.transform(req.query as Record<string, unknown>);
    return { body: await this.catalogue.page(query), headers: this.listHeaders };
  }

  /**
   * The query as the controller's pipe would hand it over. Most reads carry none, and a DTO whose
   * fields are all optional accepts an empty query: that case skips the validator (checked once,
   * by the validator itself, in emptyQueryPasses).
   */
  private async query<T extends object>(req: Request, metatype: new () => T): Promise<T> {
    const raw = req.query as Record<string, unknown>;
    if (Object.keys(raw).length === 0 && (await this.emptyQueryPasses(metatype))) return new metatype();
    return (await this.validation.transform(raw, queryOf(metatype))) as T;
  }

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

  private async detail(req: Request, segment: string): Promise<Answer> {
    const slug = this.slugs.transform(decodeURIComponent(segment));
    const query = await this.query(req, PluginDetailQueryDto);
    return { body: await this.details.detail(slug, query.locale, null), headers: this.detailHeaders };
  }

  private async latestOf(req: Request, segment: string): Promise<Answer> {
    const slug = this.slugs.transform(decodeURIComponent(segment));
    const query = await this.query(req, LatestQueryDto);
    return { body: await this.latest.latest(slug, query, req.headers['user-agent']), headers: this.latestHeaders };
  }
}
