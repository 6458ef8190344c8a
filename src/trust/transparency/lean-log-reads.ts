import { Inject, Injectable, type ValidationPipe } from '@nestjs/common';
import { requestValidationPipe } from '../../common/errors/validation';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { declaredHeaders, type LeanAnswer, type LeanRead, type LeanReads, type LeanRequest } from '../../common/http/lean-read';
import { ConsistencyProofQueryDto, InclusionProofQueryDto, MAX_LOG_NUMBER } from './dto/log.dto';
import { TransparencyController } from './transparency.controller';
import { TransparencyService } from './transparency.service';

const INCLUSION = '/api/log/proof/inclusion';
const CONSISTENCY = '/api/log/proof/consistency';
const LOG_NUMBER = /^(0|[1-9][0-9]{0,15})$/;

/** The usual spelling of a query: only `names`, each once, each a whole number the DTO takes; null for anything else. */
function plainNumbers<T extends string>(
  raw: Record<string, unknown>,
  names: readonly T[],
  required: readonly T[],
): Partial<Record<T, number>> | null {
  const numbers: Partial<Record<T, number>> = {};
  for (const name in raw) {
    const value = raw[name];
    if (
      !(names as readonly string[]).includes(name) ||
      typeof value !== 'string' ||
      !LOG_NUMBER.test(value) ||
      Number(value) > MAX_LOG_NUMBER
    )
      return null;
    numbers[name as T] = Number(value);
  }
  return required.every((name) => numbers[name] !== undefined) ? numbers : null;
}

/**
 * The proofs as the catalogue lane (src/catalogue-lane.ts) answers them ahead of Express: a
 * verifier or monitor asks one per release, each one indexed query, so Express's per-request
 * machinery would cost more than the read (docs/performance.md). Only 200s: a query the DTO
 * refuses and a proof the service refuses (index past the size, size past the head), and the lane
 * hands the request to the controller, which answers them. A mirror's proofs are upstream's: they
 * all go to the controller, so an upstream failure is read once, not once per path.
 * test/e2e/transparency-log.e2e.ts holds the two paths equal.
 */
@Injectable()
export class LeanLogReads implements LeanReads {
  private readonly validation: ValidationPipe = requestValidationPipe();
  private readonly inclusionHeaders = declaredHeaders(TransparencyController.prototype.inclusion);
  private readonly consistencyHeaders = declaredHeaders(TransparencyController.prototype.consistency);

  constructor(
    private readonly log: TransparencyService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  readFor(req: LeanRequest): LeanRead | null {
    if (this.config.mirrorOf) return null;
    if (req.path === INCLUSION) return { template: INCLUSION, answer: () => this.inclusion(req) };
    if (req.path === CONSISTENCY) return { template: CONSISTENCY, answer: () => this.consistency(req) };
    return null;
  }

  private async inclusion(req: LeanRequest): Promise<LeanAnswer> {
    const query =
      plainNumbers(req.query, ['index', 'size'], ['index']) ??
      ((await this.validation.transform(req.query, {
        type: 'query',
        metatype: InclusionProofQueryDto,
        data: undefined,
      })) as InclusionProofQueryDto);
    return { body: await this.log.inclusion(query.index!, query.size), headers: this.inclusionHeaders };
  }

  private async consistency(req: LeanRequest): Promise<LeanAnswer> {
    const query =
      plainNumbers(req.query, ['from', 'to'], ['from', 'to']) ??
      ((await this.validation.transform(req.query, {
        type: 'query',
        metatype: ConsistencyProofQueryDto,
        data: undefined,
      })) as ConsistencyProofQueryDto);
    return { body: await this.log.consistency(query.from!, query.to!), headers: this.consistencyHeaders };
  }
}
