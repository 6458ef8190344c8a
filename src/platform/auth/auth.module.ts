import { Module } from '@nestjs/common';
import { repositoryProvider } from '../../persistence/repository-provider';
import { Clock } from '../../common/clock';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { ForgesModule } from '../forges/forges.module';
import { UsersModule } from '../users/users.module';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { AdminGuard, OptionalSessionGuard, SessionGuard } from './guards';
import { OAuthController } from './oauth/oauth.controller';
import { OAuthStatesRepository } from './oauth-states.repository';
import { OAuthService } from './oauth/oauth.service';
import { SessionService } from './session.service';
import { SessionsRepository } from './sessions.repository';
import { SessionTokens } from './session-tokens';
import { StepUp } from './step-up';

@Module({
  imports: [UsersModule, ForgesModule],
  controllers: [AuthController, OAuthController],
  providers: [
    repositoryProvider(SessionsRepository),
    repositoryProvider(OAuthStatesRepository),
    {
      provide: SessionTokens,
      useFactory: (config: AppConfig, sessions: SessionsRepository, clock: Clock) =>
        new SessionTokens(config.sessionSecret, sessions, clock),
      inject: [APP_CONFIG, SessionsRepository, Clock],
    },
    SessionService,
    AuthService,
    OAuthService,
    SessionGuard,
    AdminGuard,
    OptionalSessionGuard,
    StepUp,
  ],
  exports: [SessionService, StepUp, SessionTokens, SessionGuard, AdminGuard, OptionalSessionGuard, UsersModule],
})
export class AuthModule {}
