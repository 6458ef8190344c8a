import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { DomainError } from '../common/errors/domain-error';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.types';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Paths whose writes change the catalogue: on a mirror they belong to upstream. Accounts, tokens,
 * sessions, wishlist requests, outbound subscriptions and site settings stay writable: they are
 * this instance's own.
 */
export const MIRROR_READ_ONLY_PREFIXES: readonly string[] = [
  '/api/publish/',
  '/api/plugins/',
  '/api/submit',
  '/api/webhooks/',
  '/api/admin/plugins/',
  '/api/admin/kinds',
  '/api/admin/extension-fields',
  '/api/admin/keys',
  '/api/auth/me/plugins',
  '/api/auth/me/pending-publishers',
];

/** True when a request with this method and path is a catalogue write a mirror refuses. */
export function isCatalogueWrite(method: string, path: string): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return false;
  return MIRROR_READ_ONLY_PREFIXES.some((prefix) => path === prefix.replace(/\/$/, '') || path.startsWith(prefix));
}

/**
 * On a mirror (MIRROR_OF), one global guard refuses every catalogue write with a 503
 * `read-only-mirror` problem naming upstream; elsewhere it lets everything through.
 */
@Injectable()
export class ReadOnlyMirrorGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const upstream = this.config.mirrorOf;
    if (!upstream || context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<Request>();
    if (!isCatalogueWrite(request.method, request.path)) return true;
    throw new DomainError(
      'unavailable',
      'read-only-mirror',
      `this registry is a read-only mirror of ${upstream}: send catalogue changes there`,
      undefined,
      { upstream },
    );
  }
}
