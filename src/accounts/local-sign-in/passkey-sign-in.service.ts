import { Inject, Injectable } from '@nestjs/common';
import { generateAuthenticationOptions } from '@simplewebauthn/server';
import { Clock, RandomSource } from '../../common/clock';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { ChallengesRepository } from './challenges.repository';
import type { PasskeyAnswerDto, PasskeyOptionsDto } from './dto/passkey.dto';
import { PasskeysRepository } from './passkeys.repository';
import { verifiedAssertion } from './passkey-assertion';
import { answeredChallenge, CEREMONY_TIMEOUT_MS, challengeSha256, passkeyRejected, relyingParty } from './relying-party';
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
    await this.challenges.create(
      challengeSha256(options.challenge),
      'authentication',
      null,
      new Date(now.getTime() + CEREMONY_TIMEOUT_MS),
      now,
    );
    return { options: options as unknown as Record<string, unknown> };
  }

  async signIn(body: PasskeyAnswerDto, ip: string | null): Promise<SignedIn> {
    // Counted as a failure before it is verified (parallel answers cannot outrun the limit); handed back below on success.
    const entry = await this.attempts.enterAddress(ip);
    const answer = body.response;
    const challenge = answeredChallenge(answer);
    const taken = challenge !== null && (await this.challenges.take(challengeSha256(challenge), 'authentication', null, this.clock.now()));
    const passkey = taken ? await this.passkeys.findByCredentialId(answer.id as string) : null;
    const verified = passkey?.user && challenge ? await verifiedAssertion(answer, challenge, passkey, this.config.baseUrl) : null;
    if (!passkey?.user || !verified || passkey.user.disabledAt) {
      const reason = !taken
        ? 'unknown-challenge'
        : !passkey
          ? 'unknown-credential'
          : passkey.user?.disabledAt
            ? 'disabled'
            : 'not-verified';
      await this.sessions.failed('passkey', ip, { reason, ...(passkey ? { userId: passkey.userId, passkeyId: passkey.id } : {}) });
      throw passkeyRejected();
    }
    await entry.succeeded();
    await this.passkeys.used(passkey.id, verified.newCounter, this.clock.now());
    return this.sessions.signIn(passkey.user, 'passkey', ip);
  }
}
