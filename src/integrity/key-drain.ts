import type { EntityManager } from 'typeorm';
import { insertAuditRecord } from '../audit/audit-row';
import { DomainError } from '../common/errors/domain-error';
import type { ReleaseSignaturesRepository } from './release-signatures.repository';
import type { SigningKeyRepository } from './signing-key.repository';

/** Who finished a drain: a server's background worker, `registry keys resign`, or a rotation. */
export type ResignVia = 'worker' | 'cli' | 'rotation';

/** How many failed releases an audit entry names (the count is always complete). */
export const AUDITED_FAILURES = 20;

/**
 * A rotation while the draining key still has releases to re-sign. It would push a fourth key into
 * the key set, or strand those releases; the caller waits for the drain (or runs
 * `registry keys resign`) and rotates again.
 */
export class KeyDrainPendingError extends DomainError {
  constructor(
    readonly drainingKid: string,
    readonly pending: number,
  ) {
    super(
      'conflict',
      'key-drain-pending',
      `signing key ${drainingKid} is still being drained: ${pending} release(s) signed by it wait to be re-signed with the current key. ` +
        "Rotate again once the server's re-signing worker has finished, or finish it now with 'registry keys resign'.",
      undefined,
      { drainingKid, pending },
    );
    this.name = 'KeyDrainPendingError';
  }
}

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
