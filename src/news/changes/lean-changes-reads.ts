import { Injectable, type ValidationPipe } from '@nestjs/common';
import { requestValidationPipe } from '../../common/errors/validation';
import { declaredHeaders, type LeanAnswer, type LeanRead, type LeanReads, type LeanRequest } from '../../common/http/lean-read';
import { ChangesController } from './changes.controller';
import { ChangesService } from './changes.service';
import { ChangesQueryDto, CURSOR_PATTERN, DECIMAL_DIGITS, MAX_CHANGES_LIMIT } from './dto/changes.dto';

const PATH = '/api/changes';

/**
 * `GET /api/changes` as the catalogue lane (src/catalogue-lane.ts) answers it ahead of Express: a
 * follower polls the feed, and a page is one range scan that PostgreSQL writes as JSON, so
 * Express's per-request machinery cost more than the read (docs/performance.md).
 *
 * It answers only the 200s, through the controller's service with the headers the controller
 * declares; a query the DTO refuses (a bad `since` or `limit`, an unknown parameter) and a
 * database failure reject, and the lane hands the request to the controller, which answers them.
 * test/e2e/changes-feed.e2e.ts holds the two paths equal.
 */
@Injectable()
export class LeanChangesReads implements LeanReads {
  private readonly validation: ValidationPipe = requestValidationPipe();
  private readonly headers = declaredHeaders(ChangesController.prototype.page);
  private readonly read = (req: LeanRequest): LeanRead => ({ template: PATH, answer: () => this.page(req) });

  constructor(private readonly changes: ChangesService) {}

  readFor(req: LeanRequest): LeanRead | null {
    return req.path === PATH ? this.read(req) : null;
  }

  private async page(req: LeanRequest): Promise<LeanAnswer> {
    const query =
      plainQuery(req.query) ??
      ((await this.validation.transform(req.query, { type: 'query', metatype: ChangesQueryDto, data: undefined })) as ChangesQueryDto);
    return { json: await this.changes.page(query), headers: this.headers };
  }
}

/**
 * The query as the DTO would read it, for the usual spellings only (at most `since` and `limit`,
 * each once, each as the DTO accepts it), without the validator's cost; null for anything else,
 * which the validator then reads (or refuses).
 */
export function plainQuery(raw: Record<string, unknown>): ChangesQueryDto | null {
  const query = new ChangesQueryDto();
  for (const name in raw) {
    const value = raw[name];
    if (typeof value !== 'string') return null;
    if (name === 'since' && CURSOR_PATTERN.test(value)) query.since = value;
    else if (name === 'limit' && DECIMAL_DIGITS.test(value) && Number(value) >= 1 && Number(value) <= MAX_CHANGES_LIMIT)
      query.limit = Number(value);
    else return null;
  }
  return query;
}
