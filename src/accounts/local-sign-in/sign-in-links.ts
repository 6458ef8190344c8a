import { createHash, randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { insertAuditRecord } from '../../platform/audit/audit-row';
import { SignInLinksRepository } from './sign-in-links.repository';

/** How long a printed sign-in link works. */
export const SIGN_IN_LINK_LIFETIME_MS = 15 * 60 * 1000;

/** The path a sign-in link opens; its `token` query parameter is redacted from every log line. */
export const SIGN_IN_LINK_PATH = '/auth/link';

export function linkTokenSha256(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

export interface IssuedLink {
  url: string;
  expiresAt: Date;
}

/**
 * Makes a one-time sign-in link for a user: 256 random bits, only their SHA-256 stored, good
 * for 15 minutes and one use. Framework-free: `registry users sign-in-link` calls it without Nest.
 */
export async function issueSignInLink(
  dataSource: DataSource,
  input: { userId: string; login: string; baseUrl: string; now: Date; via: 'cli' | 'api'; random?: (n: number) => Buffer },
): Promise<IssuedLink> {
  const token = (input.random ?? randomBytes)(32).toString('base64url');
  const expiresAt = new Date(input.now.getTime() + SIGN_IN_LINK_LIFETIME_MS);
  await dataSource.transaction(async (manager) => {
    await new SignInLinksRepository(dataSource).create(input.userId, linkTokenSha256(token), expiresAt, input.now, manager);
    await insertAuditRecord(manager, {
      action: 'sign_in_link.issue',
      details: { userId: input.userId, login: input.login, via: input.via, expiresAt: expiresAt.getTime() },
    });
  });
  // base64url needs no escaping in a query.
  return { url: `${input.baseUrl}${SIGN_IN_LINK_PATH}?token=${token}`, expiresAt };
}
