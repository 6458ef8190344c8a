import type { Request } from 'express';
import type { PublisherTokenEntity } from '../tokens/entities/publisher-token.entity';
import type { UserEntity } from '../users/entities/user.entity';

/** Who made the request, as a guard established it. */
export type AuthContext =
  | { kind: 'session'; user: UserEntity; sessionId: string; via: 'cookie' | 'bearer' }
  | { kind: 'token'; user: UserEntity; token: PublisherTokenEntity };

export interface AuthenticatedRequest extends Request {
  auth?: AuthContext;
}

export const PUBLISHER_TOKEN_PREFIX = 'prt_';

/** The bearer credential, if any. */
export function bearerToken(request: Request): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

export function cookieValue(request: Request, name: string): string | null {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

export function clientIp(request: Request): string | null {
  return request.ip ?? request.socket?.remoteAddress ?? null;
}
