import type { EntityManager } from 'typeorm';
import { insertAuditRecord } from '../../platform/audit/audit-row';
import type { ReleaseSignaturesRepository } from './release-signatures.repository';
import type { SigningKeyRepository } from './signing-key.repository';

/** Who finished a drain: a server's background worker or `registry keys resign`. */
export type ResignVia = 'worker' | 'cli';

/** How many failed releases an audit entry names (the count is always complete). */
export const AUDITED_FAILURES = 20;

/**
 * Retires a draining key that has nothing left to re-sign, in the caller's transaction (which
 * holds the key-set lock), and writes the `key.resign` audit entry with the drain's totals.
 * Returns false when the key was not draining any more (another instance retired it first).
 */
export async function retireDrainedKey(
  manager: EntityManager,
  repositories: { keys: SigningKeyRepository; signatures: ReleaseSignaturesRepository },
  drained: { kid: string; resignedCount: number },
  context: { at: Date; currentKid: string | null; via: ResignVia },
): Promise<boolean> {
  const { keys, signatures } = repositories;
  if (!(await keys.retire(manager, drained.kid, 'draining', context.at))) return false;
  const failed = (await signatures.failureCounts([drained.kid], manager)).get(drained.kid) ?? 0;
  const failures = failed ? await signatures.failures(drained.kid, AUDITED_FAILURES, manager) : [];
  await insertAuditRecord(manager, {
    action: 'key.resign',
    details: { kid: drained.kid, resignedWith: context.currentKid, resigned: drained.resignedCount, failed, failures, via: context.via },
  });
  return true;
}
