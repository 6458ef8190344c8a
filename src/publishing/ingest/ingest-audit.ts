import { Injectable } from '@nestjs/common';
import type { AuditAction } from '../../platform/audit/audit-actions';
import { type AuditActor, AuditService } from '../../platform/audit/audit.service';
import { DomainError, type DomainErrorKind } from '../../common/errors/domain-error';

/** What was attempted: a release ingest from a CI push, or a yank from a CI push. */
export type AuditedOperation = 'push' | 'yank';

/**
 * The spec's failure audit in one place. A push audits 403, 409, 422 and 502; 401 and 400 are
 * caught before anything is attempted and are not audited. A yank audits its denial as such.
 */
const FAILURE_ACTIONS: Record<AuditedOperation, Partial<Record<DomainErrorKind, AuditAction>>> = {
  push: {
    forbidden: 'plugin.publish_denied',
    conflict: 'plugin.publish_conflict',
    invalid: 'plugin.publish_invalid',
    'upstream-failed': 'plugin.publish_asset_fail',
  },
  yank: { forbidden: 'plugin.yank_denied' },
};

export function failureAction(operation: AuditedOperation, error: unknown): AuditAction | undefined {
  return error instanceof DomainError ? FAILURE_ACTIONS[operation][error.kind] : undefined;
}

@Injectable()
export class IngestAudit {
  constructor(private readonly audit: AuditService) {}

  /** Runs `work`; a failure the spec audits is recorded (outside any failed transaction), then rethrown. */
  async audited<T>(
    operation: AuditedOperation,
    slug: string,
    actor: AuditActor,
    details: Record<string, unknown>,
    work: () => Promise<T>,
  ): Promise<T> {
    try {
      return await work();
    } catch (error) {
      const action = failureAction(operation, error);
      if (action) {
        const failure = error as DomainError;
        await this.audit.record({
          action,
          actor,
          slug,
          details: { ...details, code: failure.code, detail: failure.detail, ...failure.extensions },
        });
      }
      throw error;
    }
  }
}
