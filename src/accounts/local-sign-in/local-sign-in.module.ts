import { Module } from '@nestjs/common';
import { AuthModule } from '../../platform/auth/auth.module';
import { repositoryProvider } from '../../persistence/repository-provider';
import { RateLimitModule } from '../../platform/rate-limit/rate-limit.module';
import { SettingsModule } from '../../platform/settings/settings.module';
import { AccountCredentialsController } from './account-credentials.controller';
import { AccountPasswordService } from './account-password.service';
import { ChallengesRepository } from './challenges.repository';
import { CurrentPassword } from './current-password';
import { LinkSignInService } from './link-sign-in.service';
import { LocalSignInController } from './local-sign-in.controller';
import { PasskeySignInService } from './passkey-sign-in.service';
import { PasskeysRepository } from './passkeys.repository';
import { PasskeysService } from './passkeys.service';
import { PasswordHasher } from './password-hasher';
import { PasswordSignInService } from './password-sign-in.service';
import { PasswordsRepository } from './passwords.repository';
import { SessionIssuer } from './session-issuer';
import { SignInAttempts } from './sign-in-attempts';
import { SignInLinksRepository } from './sign-in-links.repository';
import { StepUpService } from './step-up.service';

/**
 * Sign-in without a forge (docs/administering.md): passkeys (WebAuthn), a password for local
 * accounts (setting `signin.password_enabled`), and one-time links the operator prints.
 */
@Module({
  imports: [AuthModule, RateLimitModule, SettingsModule],
  controllers: [LocalSignInController, AccountCredentialsController],
  providers: [
    repositoryProvider(PasskeysRepository),
    repositoryProvider(ChallengesRepository),
    repositoryProvider(PasswordsRepository),
    repositoryProvider(SignInLinksRepository),
    SignInAttempts,
    SessionIssuer,
    PasswordSignInService,
    PasskeySignInService,
    LinkSignInService,
    PasskeysService,
    AccountPasswordService,
    PasswordHasher,
    CurrentPassword,
    StepUpService,
  ],
})
export class LocalSignInModule {}
