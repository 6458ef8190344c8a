import request from 'supertest';
import { userWithSession } from './sessions';
import type { TestApp } from './test-app';

export interface AdminRefusalCallers {
  /** A signed-in user without the admin role. */
  userJwt: string;
  /** A publisher token owned by an admin: a token is never a session, whatever its owner's role. */
  adminPublisherToken: string;
}

let counter = 0;

/** A non-admin session and an admin-owned publisher token, to knock on admin doors with. */
export async function adminRefusalCallers(app: TestApp): Promise<AdminRefusalCallers> {
  counter += 1;
  const user = await userWithSession(app, `refused-user-${counter}`);
  const admin = await userWithSession(app, `token-admin-${counter}`, 'admin');
  const created = await request(app.url)
    .post('/api/auth/me/tokens')
    .set('Authorization', `Bearer ${admin.jwt}`)
    .send({ name: 'ci', scopes: ['publish:*'] })
    .expect(201);
  return { userJwt: user.jwt, adminPublisherToken: created.body.token as string };
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Anonymous → 401, a non-admin session → 403, a publisher token (even an admin's) → 401. */
export async function expectAdminOnly(
  app: TestApp,
  callers: AdminRefusalCallers,
  method: Method,
  path: string,
  body?: object,
): Promise<void> {
  const send = (req: request.Test) => (body === undefined ? req : req.send(body));
  const anonymous = await send(request(app.url)[method](path));
  expect([path, anonymous.status]).toEqual([path, 401]);
  const user = await send(request(app.url)[method](path).set('Authorization', `Bearer ${callers.userJwt}`));
  expect([path, user.status]).toEqual([path, 403]);
  const token = await send(request(app.url)[method](path).set('Authorization', `Bearer ${callers.adminPublisherToken}`));
  expect([path, token.status]).toEqual([path, 401]);
}
