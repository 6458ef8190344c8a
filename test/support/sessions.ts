import { SessionsRepository } from '../../src/platform/auth/sessions.repository';
import { SessionTokens } from '../../src/platform/auth/session-tokens';
import { SystemClock } from '../../src/common/clock';
import type { UserRole } from '../../src/platform/users/entities/user.entity';
import { sealProviderToken } from '../../src/platform/users/provider-token';
import { UsersRepository } from '../../src/platform/users/users.repository';
import type { TestApp } from './test-app';

/** Creates a local user directly in the app's database and a session JWT for it. */
export async function userWithSession(app: TestApp, login: string, role: UserRole = 'user') {
  const dataSource = app.database.dataSource;
  const user = await new UsersRepository(dataSource).createLocal({ login, email: null, role });
  const tokens = new SessionTokens(app.config.sessionSecret, new SessionsRepository(dataSource), new SystemClock());
  const session = await tokens.issue(user.id);
  return { user, jwt: session.token, sessionId: session.sessionId };
}

/** A user signed in through a forge instance (with a stored provider access token) and a session JWT. */
export async function linkedUserWithSession(app: TestApp, instance: string, login: string, providerUserId: string, accessToken: string) {
  const dataSource = app.database.dataSource;
  const user = await new UsersRepository(dataSource).upsertFromProvider({
    instance,
    providerUserId,
    login,
    email: null,
    avatarUrl: null,
    providerTokenSealed: sealProviderToken(app.config.keyEncryptionKey, instance, providerUserId, accessToken),
  });
  const tokens = new SessionTokens(app.config.sessionSecret, new SessionsRepository(dataSource), new SystemClock());
  const session = await tokens.issue(user.id);
  return { user, jwt: session.token };
}
