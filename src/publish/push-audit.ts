import type { AuditAction } from '../audit/audit-actions';
import type { DomainErrorKind } from '../common/errors/domain-error';

/**
 * The spec's audit rule for a push, in one place: 403, 409, 422 and 502 are audited; 401 and 400
 * are not (they are caught before anything is attempted).
 */
export const PUSH_AUDIT_BY_KIND: Partial<Record<DomainErrorKind, AuditAction>> = {
  forbidden: 'plugin.publish_denied',
  conflict: 'plugin.publish_conflict',
  invalid: 'plugin.publish_invalid',
  'upstream-failed': 'plugin.publish_asset_fail',
};
