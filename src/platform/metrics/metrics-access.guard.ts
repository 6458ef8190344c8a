import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { bearerToken } from '../auth/auth-context';
import { sameSecret } from '../../common/crypto/same-secret';
import { forbidden, unauthorized } from '../../common/errors/domain-error';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * `GET /metrics`: with METRICS_TOKEN, its bearer token from anywhere; without, loopback callers
 * only. "Loopback" is the socket's peer with no X-Forwarded-For, whatever TRUST_PROXY says: a
 * reverse proxy on the same host connects from loopback on behalf of the whole internet.
 */
@Injectable()
export class MetricsAccessGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    const token = this.config.metricsToken;
    if (token) {
      const given = bearerToken(request);
      if (!given || !sameSecret(given, token)) throw unauthorized('GET /metrics needs the METRICS_TOKEN as a bearer token');
      return true;
    }
    const direct = LOOPBACK.test(request.socket.remoteAddress ?? '') && request.headers['x-forwarded-for'] === undefined;
    if (!direct) throw forbidden('GET /metrics answers loopback callers only; set METRICS_TOKEN to scrape it from elsewhere');
    return true;
  }
}
