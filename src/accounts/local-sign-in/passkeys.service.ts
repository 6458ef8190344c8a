import { Inject, Injectable } from '@nestjs/common';
import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type AuthenticatorTransportFuture,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { AuditService } from '../../platform/audit/audit.service';
import type { SessionAuthContext } from '../../platform/auth/auth-context';
import { StepUp } from '../../platform/auth/step-up';
import { Clock, RandomSource } from '../../common/clock';
import { conflict, DomainError, notFound } from '../../common/errors/domain-error';
import { uniqueViolation } from '../../persistence/unique-violation';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { SettingsService } from '../../platform/settings/settings.service';
import { ChallengesRepository } from './challenges.repository';
import type { PasskeyDto, PasskeyListDto, PasskeyOptionsDto, PasskeyRegistrationDto } from './dto/passkey.dto';
import { toPasskeyDto } from './local-sign-in.mapper';
import { PasskeysRepository } from './passkeys.repository';
import { answeredChallenge, CEREMONY_TIMEOUT_MS, challengeSha256, relyingParty, userHandle } from './relying-party';

/** At most this many passkeys a user. */
export const MAX_PASSKEYS = 20;

const limitReached = () => conflict('passkey-limit-reached', `a user may register at most ${MAX_PASSKEYS} passkeys; remove one first`);

const registrationRefused = (detail: string) => new DomainError('bad-request', 'passkey-registration-failed', detail);

/** A signed-in user's passkeys: register one (two steps), list, rename, remove. Adding and removing pass the step-up rule. */
@Injectable()
export class PasskeysService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly challenges: ChallengesRepository,
    private readonly passkeys: PasskeysRepository,
    private readonly settings: SettingsService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    private readonly random: RandomSource,
    private readonly stepUp: StepUp,
  ) {}

  async list(auth: SessionAuthContext): Promise<PasskeyListDto> {
    return { passkeys: (await this.passkeys.listFor(auth.user.id)).map(toPasskeyDto) };
  }

  async registrationOptions(auth: SessionAuthContext): Promise<PasskeyOptionsDto> {
    this.stepUp.require(auth);
    const existing = await this.passkeys.listFor(auth.user.id);
    if (existing.length >= MAX_PASSKEYS) throw limitReached();
    const now = this.clock.now();
    const options = await generateRegistrationOptions({
      rpName: await this.settings.get('site.name'),
      rpID: relyingParty(this.config.baseUrl).id,
      userName: auth.user.login,
      userDisplayName: auth.user.login,
      userID: userHandle(auth.user.id),
      challenge: new Uint8Array(this.random.bytes(32)),
      timeout: CEREMONY_TIMEOUT_MS,
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports as AuthenticatorTransportFuture[] })),
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
    });
    await this.challenges.create(
      challengeSha256(options.challenge),
      'registration',
      auth.user.id,
      new Date(now.getTime() + CEREMONY_TIMEOUT_MS),
      now,
    );
    return { options: options as unknown as Record<string, unknown> };
  }

  async register(auth: SessionAuthContext, body: PasskeyRegistrationDto): Promise<PasskeyDto> {
    this.stepUp.require(auth);
    const challenge = answeredChallenge(body.response);
    if (!challenge || !(await this.challenges.take(challengeSha256(challenge), 'registration', auth.user.id, this.clock.now()))) {
      throw registrationRefused('the answer does not match a registration started by you in the last 5 minutes; start again');
    }
    const rp = relyingParty(this.config.baseUrl);
    let info;
    try {
      const result = await verifyRegistrationResponse({
        response: body.response as unknown as RegistrationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification: true,
      });
      if (!result.verified) throw new Error('not verified');
      info = result.registrationInfo;
    } catch (error) {
      throw registrationRefused(`the passkey could not be verified: ${(error as Error).message.slice(0, 200)}`);
    }
    const now = this.clock.now();
    try {
      // Counted again as it is stored: registrations started before another finished may not pass the limit.
      const created = await this.passkeys.createWithin(MAX_PASSKEYS, {
        userId: auth.user.id,
        credentialId: info.credential.id,
        publicKey: Buffer.from(info.credential.publicKey),
        signCount: info.credential.counter,
        transports: info.credential.transports ?? [],
        name: body.name?.trim() || `Passkey ${now.toISOString().slice(0, 10)}`,
        deviceType: info.credentialDeviceType,
        backedUp: info.credentialBackedUp,
      });
      if (!created) throw limitReached();
      await this.audit.record({
        action: 'passkey.add',
        actor: { userId: auth.user.id },
        details: { passkeyId: created.id, name: created.name },
      });
      return toPasskeyDto(created);
    } catch (error) {
      if (uniqueViolation(error)) throw conflict('passkey-exists', 'this passkey is registered already');
      throw error;
    }
  }

  async rename(auth: SessionAuthContext, id: string, name: string): Promise<PasskeyDto> {
    const passkey = await this.owned(auth, id);
    await this.passkeys.rename(passkey.id, name.trim());
    return toPasskeyDto({ ...passkey, name: name.trim() });
  }

  async remove(auth: SessionAuthContext, id: string): Promise<void> {
    this.stepUp.require(auth);
    const passkey = await this.owned(auth, id);
    await this.passkeys.remove(passkey.id);
    await this.audit.record({
      action: 'passkey.remove',
      actor: { userId: auth.user.id },
      details: { passkeyId: passkey.id, name: passkey.name },
    });
  }

  private async owned(auth: SessionAuthContext, id: string) {
    const passkey = await this.passkeys.findOwned(id, auth.user.id);
    if (!passkey) throw notFound('you have no passkey with this id');
    return passkey;
  }
}
