import { Inject, Injectable } from '@nestjs/common';
import { generateAuthenticationOptions, type AuthenticatorTransportFuture } from '@simplewebauthn/server';
import { AuditService } from '../../platform/audit/audit.service';
import type { SessionAuthContext } from '../../platform/auth/auth-context';
import { StepUp } from '../../platform/auth/step-up';
import { Clock, RandomSource } from '../../common/clock';
import { badRequest, conflict, DomainError } from '../../common/errors/domain-error';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { ChallengesRepository } from './challenges.repository';
import { CurrentPassword } from './current-password';
import type { PasskeyOptionsDto } from './dto/passkey.dto';
import type { StepUpDto } from './dto/step-up.dto';
import { verifiedAssertion } from './passkey-assertion';
import { PasswordHasher } from './password-hasher';
import { PasskeysRepository } from './passkeys.repository';
import { PasswordsRepository } from './passwords.repository';
import { answeredChallenge, CEREMONY_TIMEOUT_MS, challengeSha256, relyingParty } from './relying-party';
import { SignInAttempts } from './sign-in-attempts';

const stepUpFailed = () =>
  new DomainError(
    'forbidden',
    'step-up-failed',
    'the passkey was not accepted: use one of your own passkeys, answering options from POST /api/auth/me/step-up/options within 5 minutes',
  );

/**
 * A signed-in person confirms it is them (POST /api/auth/me/step-up): with one of the account's
 * passkeys, answering a challenge made for this account, or with the current password. The
 * session then counts as freshly verified for 10 minutes (StepUp), which every credential change asks.
 */
@Injectable()
export class StepUpService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly challenges: ChallengesRepository,
    private readonly passkeys: PasskeysRepository,
    private readonly passwords: PasswordsRepository,
    private readonly current: CurrentPassword,
    private readonly hasher: PasswordHasher,
    private readonly attempts: SignInAttempts,
    private readonly stepUp: StepUp,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    private readonly random: RandomSource,
  ) {}

  /** WebAuthn request options naming the account's own passkeys, with a challenge only this account can answer. */
  async options(auth: SessionAuthContext): Promise<PasskeyOptionsDto> {
    const mine = await this.passkeys.listFor(auth.user.id);
    if (mine.length === 0) throw conflict('no-passkey', 'you have no passkey; confirm with your current password, or sign in again');
    const now = this.clock.now();
    const options = await generateAuthenticationOptions({
      rpID: relyingParty(this.config.baseUrl).id,
      challenge: new Uint8Array(this.random.bytes(32)),
      userVerification: 'required',
      timeout: CEREMONY_TIMEOUT_MS,
      allowCredentials: mine.map((p) => ({ id: p.credentialId, transports: p.transports as AuthenticatorTransportFuture[] })),
    });
    await this.challenges.create(
      challengeSha256(options.challenge),
      'authentication',
      auth.user.id,
      new Date(now.getTime() + CEREMONY_TIMEOUT_MS),
      now,
    );
    return { options: options as unknown as Record<string, unknown> };
  }

  async confirm(auth: SessionAuthContext, body: StepUpDto, ip: string | null): Promise<void> {
    if ((body.passkey === undefined) === (body.currentPassword === undefined)) {
      throw badRequest('validation-failed', 'give either passkey or currentPassword', [
        { path: '', message: 'exactly one of passkey and currentPassword' },
      ]);
    }
    const method = body.passkey ? 'passkey' : 'password';
    if (body.passkey) await this.byPasskey(auth, body.passkey, ip);
    else await this.byPassword(auth, body.currentPassword!, ip);
    await this.stepUp.verified(auth);
    await this.audit.record({ action: 'user.step_up', actor: { userId: auth.user.id, ip }, details: { method, login: auth.user.login } });
  }

  private async byPasskey(auth: SessionAuthContext, answer: Record<string, unknown>, ip: string | null): Promise<void> {
    // Counted as a failure before it is verified (parallel answers cannot outrun the limit); handed back below on success.
    const entry = await this.attempts.enterAddress(ip);
    const challenge = answeredChallenge(answer);
    // Only a challenge made for this account by step-up/options: a sign-in's challenge (no user) does not do.
    const taken =
      challenge !== null && (await this.challenges.take(challengeSha256(challenge), 'authentication', auth.user.id, this.clock.now()));
    const passkey = taken ? await this.passkeys.findByCredentialId(answer.id as string) : null;
    const verified =
      passkey?.userId === auth.user.id && challenge ? await verifiedAssertion(answer, challenge, passkey, this.config.baseUrl) : null;
    if (!passkey || !verified) throw stepUpFailed();
    await entry.succeeded();
    await this.passkeys.used(passkey.id, verified.newCounter, this.clock.now());
  }

  private async byPassword(auth: SessionAuthContext, given: string, ip: string | null): Promise<void> {
    await this.current.admit(auth.user.id, ip);
    const hash = await this.passwords.hashOf(auth.user.id);
    await this.hasher.withSlot((slot) => this.current.verify(slot, auth.user.id, hash, given));
  }
}
