import { DomainError } from '../../../common/errors/domain-error';

/** The ID token cannot be trusted (401): nothing about it is acted on. */
export const invalidIdToken = (detail: string) => new DomainError('unauthorized', 'oidc-token-invalid', detail);

/** The issuer's keys could not be read for a reason that may pass (a 5xx, a timeout): 502, worth a retry. */
export const issuerUnreachable = (detail: string) => new DomainError('upstream-failed', 'oidc-issuer-unreachable', detail);
