import { Inject, Injectable } from '@nestjs/common';
import { generateAuthenticationOptions, verifyAuthenticationResponse, type AuthenticationResponseJSON } from '@simplewebauthn/server';
import { Clock, RandomSource } from '../common/clock';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.types';
import { ChallengesRepository } from './challenges.repository';
import type { PasskeyAnswerDto, PasskeyOptionsDto } from './dto/passkey.dto';
import { PasskeysRepository } from './passkeys.repository';
import { answeredChallenge, CEREMONY_TIMEOUT_MS, challengeSha256, passkeyRejected, relyingParty, userHandle } from './relying-party';
import { SessionIssuer } from './session-issuer';
import { SignInAttempts } from './sign-in-attempts';
import type { SignedIn } from './sign-in-http';

/**
 * Usernameless sign-in with a passkey: the browser offers whichever discoverable credential the
 * person picks for this site; the credential id names the account.
 */
@Injectable()
export class PasskeySignInService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly challenges: ChallengesRepository,
    private readonly passkeys: PasskeysRepository,
    private readonly attempts: SignInAttempts,
    private readonly sessions: SessionIssuer,
    private readonly clock: Clock,
    private readonly random: RandomSource,
  ) {}

  async options(): Promise<PasskeyOptionsDto> {
    const now = this.clock.now();
    const challenge = this.random.bytes(32).toString('base64url');
    const options = await generateAuthenticationOptions({
      rpID: relyingParty(this.config.baseUrl).id,
      challenge: new Uint8Array(Buffer.from(challenge, 'base64url')),
      userVerification: 'required',
      timeout: CEREMONY_TIMEOUT_MS,
    });
    await this.challenges.create(challengeSha256(options.challenge), 'authentication', null, new Date(now.getTime() + CEREMONY_TIMEOUT_MS), now);
    return { options: options as unknown as Record<string, unknown> };
  }

  async signIn(body: PasskeyAnswerDto, ip: string | null): Promise<SignedIn> {
    await this.attempts.checkAddress(ip);
    const answer = body.response;
    const challenge = answeredChallenge(answer);
    const taken = challenge !== null && (await this.challenges.take(challengeSha256(challenge), 'authentication', null, this.clock.now()));
    const passkey = taken ? await this.passkeys.findByCredentialId(answer.id as string) : null;
    const rp = relyingParty(this.config.baseUrl);
    let verified: { newCounter: number } | null = null;
    if (passkey?.user && challenge) {
      try {
        const result = await verifyAuthenticationResponse({
          response: answer as unknown as AuthenticationResponseJSON,
          expectedChallenge: challenge,
          expectedOrigin: rp.origin,
          expectedRPID: rp.id,
          credential: { id: passkey.credentialId, publicKey: new Uint8Array(passkey.publicKey), counter: passkey.signCount },
          requireUserVerification: true,
        });
        if (result.verified) verified = result.authenticationInfo;
      } catch {
        verified = null;
      }
    }
    const handle = (answer.response as Record<string, unknown>)?.userHandle;
    const handleOk = !passkey || handle === undefined || handle === null || handle === Buffer.from(userHandle(passkey.userId)).toString('base64url');
    if (!passkey?.user || !verified || !handleOk || passkey.user.disabledAt) {
      const reason = !taken ? 'unknown-challenge' : !passkey ? 'unknown-credential' : passkey.user?.disabledAt ? 'disabled' : 'not-verified';
      await this.attempts.failed(ip, null);
      await this.sessions.failed('passkey', ip, { reason, ...(passkey ? { userId: passkey.userId, passkeyId: passkey.id } : {}) });
      throw passkeyRejected();
    }
    await this.passkeys.used(passkey.id, verified.newCounter, this.clock.now());
    return this.sessions.signIn(passkey.user, 'passkey', ip);
  }
}
