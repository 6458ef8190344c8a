import { verifyAuthenticationResponse, type AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { PasskeyCredentialEntity } from './entities/passkey-credential.entity';
import { relyingParty, userHandle } from './relying-party';

/**
 * Whether a browser's assertion verifies for this passkey and challenge on this site (user
 * verification required, the user handle, when sent, the passkey's user's): its new signature
 * counter, or null. Sign-in and step-up both ask it.
 */
export async function verifiedAssertion(
  answer: Record<string, unknown>,
  challenge: string,
  passkey: PasskeyCredentialEntity,
  baseUrl: string,
): Promise<{ newCounter: number } | null> {
  const handle = (answer.response as Record<string, unknown>)?.userHandle;
  if (handle !== undefined && handle !== null && handle !== Buffer.from(userHandle(passkey.userId)).toString('base64url')) return null;
  const rp = relyingParty(baseUrl);
  try {
    const result = await verifyAuthenticationResponse({
      response: answer as unknown as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: { id: passkey.credentialId, publicKey: new Uint8Array(passkey.publicKey), counter: passkey.signCount },
      requireUserVerification: true,
    });
    return result.verified ? result.authenticationInfo : null;
  } catch {
    return null;
  }
}
