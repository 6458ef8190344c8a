import { Inject, Injectable } from '@nestjs/common';
import { decodeJwt, errors, jwtVerify, type JWTPayload } from 'jose';
import { Clock } from '../../../common/clock';
import { DomainError } from '../../../common/errors/domain-error';
import { APP_CONFIG } from '../../../config/config.module';
import type { AppConfig } from '../../../config/config.types';
import { ForgeRegistry } from '../../../platform/forges/forge-registry';
import type { ForgeInstanceConfig } from '../../../lib/forge/types';
import { IssuerKeys } from './issuer-keys';
import { invalidIdToken } from './oidc-error';

/** Asymmetric algorithms only: never `none`, never HS* (whose "key" would be public JWKS bytes). */
export const ALLOWED_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
/** Clock skew tolerated on exp, nbf and iat. */
export const LEEWAY_SECONDS = 30;

export interface VerifiedIdToken {
  forge: ForgeInstanceConfig;
  issuer: string;
  claims: JWTPayload & Record<string, unknown>;
  jti: string;
  /** When the token stops being valid (exp plus leeway): how long its jti must be remembered. */
  usableUntil: Date;
}

const shown = (value: unknown) => JSON.stringify(String(value).slice(0, 120));

function claimFailure(error: errors.JWTClaimValidationFailed): string {
  if (error.claim === 'aud') return "the ID token's audience (aud) is not this registry";
  if (error.claim === 'nbf') return 'the ID token is not valid yet (nbf)';
  if (error.claim === 'iss') return "the ID token's issuer does not match";
  return `the ID token's ${error.claim} claim is missing or wrong`;
}

/**
 * Verifies a CI OIDC ID token: its issuer must be the `oidcIssuer` of a configured forge instance
 * (looked up before any network use, so an unknown issuer costs nothing), its signature must be
 * by a key of that issuer's JWKS under an asymmetric algorithm, its audience this registry's, and
 * it must be within exp/nbf/iat (with a small leeway) and carry a jti.
 */
@Injectable()
export class IdTokenVerifier {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly forges: ForgeRegistry,
    private readonly keys: IssuerKeys,
    private readonly clock: Clock,
  ) {}

  async verify(token: string): Promise<VerifiedIdToken> {
    let unverifiedIssuer: unknown;
    try {
      unverifiedIssuer = decodeJwt(token).iss;
    } catch {
      throw invalidIdToken('the token is not a JWT');
    }
    const forge = this.forges.all().find((f) => f.oidcIssuer !== undefined && f.oidcIssuer === unverifiedIssuer);
    if (!forge || typeof unverifiedIssuer !== 'string')
      throw invalidIdToken(`the issuer ${shown(unverifiedIssuer)} is not the OIDC issuer of a configured forge instance`);
    const issuer = unverifiedIssuer;
    const now = this.clock.now();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, (header, input) => this.keys.key(issuer, header, input), {
        issuer,
        audience: this.config.oidcAudience,
        algorithms: ALLOWED_ALGORITHMS,
        clockTolerance: LEEWAY_SECONDS,
        currentDate: now,
        requiredClaims: ['exp', 'iat', 'jti'],
      }));
    } catch (error) {
      throw this.failure(error);
    }
    const nowSeconds = Math.floor(now.getTime() / 1000);
    if (typeof payload.iat !== 'number' || payload.iat > nowSeconds + LEEWAY_SECONDS)
      throw invalidIdToken('the ID token was issued in the future (iat)');
    if (typeof payload.jti !== 'string' || payload.jti === '' || payload.jti.length > 256)
      throw invalidIdToken('the ID token has no usable jti');
    return {
      forge,
      issuer,
      claims: payload as VerifiedIdToken['claims'],
      jti: payload.jti,
      usableUntil: new Date((payload.exp! + LEEWAY_SECONDS) * 1000),
    };
  }

  private failure(error: unknown): Error {
    if (error instanceof DomainError) return error;
    if (error instanceof errors.JWTExpired) return invalidIdToken('the ID token has expired');
    if (error instanceof errors.JWTClaimValidationFailed) return invalidIdToken(claimFailure(error));
    if (error instanceof errors.JOSEAlgNotAllowed)
      return invalidIdToken(`the ID token's algorithm is not accepted (only ${ALLOWED_ALGORITHMS.join(', ')})`);
    if (error instanceof errors.JWSSignatureVerificationFailed) return invalidIdToken("the ID token's signature does not verify");
    if (error instanceof errors.JOSEError) return invalidIdToken(`the ID token is malformed (${error.code})`);
    return error instanceof Error ? error : new Error(String(error));
  }
}
