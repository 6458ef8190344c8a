/**
 * Password hashing that cannot be turned against the server, and logins kept out of addresses
 * ("Hardening, round 4"): a locked account's password change hashes nothing and says it is
 * locked; password changes are limited per account and per address; past PASSWORD_HASH_CONCURRENCY
 * (1 here) a password request is answered 503 with Retry-After; a failed no-script sign-in sends
 * no login back in its redirect, and a logged URL shows neither a login nor a password.
 */
import request from 'supertest';
import { createLogger } from '../../src/common/logging/logger';
import { PasswordHasher } from '../../src/accounts/local-sign-in/password-hasher';
import { captureLog } from '../support/log-capture';
import { userWithSession } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

describe('password hashing and sign-in privacy', () => {
  let app: TestApp;
  const log = captureLog();
  let ipCounter = 0;
  const freshIp = () => `198.51.100.${++ipCounter}`;

  beforeAll(async () => {
    app = await startTestApp({ PASSWORD_HASH_CONCURRENCY: '1' }, undefined, createLogger('info', log.stream));
  });
  afterAll(() => app?.close());

  const settings = async (values: Record<string, number>) => {
    const admin = await userWithSession(app, `root-${++ipCounter}`, 'admin');
    await request(app.url).patch('/api/admin/settings').set('Authorization', `Bearer ${admin.jwt}`).send(values).expect(200);
  };
  const put = (jwt: string, body: Record<string, string>, ip = freshIp()) =>
    request(app.url).put('/api/auth/me/password').set('Authorization', `Bearer ${jwt}`).set('X-Forwarded-For', ip).send(body);
  const signIn = (login: string, password: string) =>
    request(app.url).post('/api/auth/sign-in/password').set('X-Forwarded-For', freshIp()).send({ login, password });
  const hashOf = async (userId: string) =>
    ((await app.database.dataSource.query(`SELECT hash FROM user_password WHERE user_id = $1`, [userId])) as { hash: string }[])[0]?.hash;

  it('answers a password change on a locked account with the lock, before hashing anything', async () => {
    const { user, jwt } = await userWithSession(app, 'locked-out');
    await put(jwt, { password: 'the first long password' }).expect(200);
    for (let i = 0; i < 5; i++) await signIn('locked-out', `wrong password ${i}`).expect(401);
    const before = await hashOf(user.id);
    const reserve = jest.spyOn(app.app.get(PasswordHasher), 'reserve');
    try {
      const refused = await put(jwt, { password: 'a password set while locked' }).expect(429);
      expect(refused.body.type).toMatch(/\/problems\/account-locked$/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // A step-up with the current password waits for the lock too.
      const stepUp = await request(app.url)
        .post('/api/auth/me/step-up')
        .set('Authorization', `Bearer ${jwt}`)
        .set('X-Forwarded-For', freshIp())
        .send({ currentPassword: 'the first long password' })
        .expect(429);
      expect(stepUp.body.type).toMatch(/\/problems\/account-locked$/);
      expect(reserve).not.toHaveBeenCalled();
    } finally {
      reserve.mockRestore();
    }
    expect(await hashOf(user.id)).toBe(before);
  });

  it('limits password changes per account and per address', async () => {
    await settings({ 'ratelimit.password_checks_per_hour': 2 });
    try {
      const first = await userWithSession(app, 'limited-one');
      const second = await userWithSession(app, 'limited-two');
      const shared = freshIp();
      await put(first.jwt, { password: 'limited password one' }, shared).expect(200);
      await put(first.jwt, { password: 'limited password two' }, shared).expect(200);
      const before = await hashOf(first.user.id);
      // The account's limit, from any address.
      const account = await put(first.jwt, { password: 'limited password three' }).expect(429);
      expect(account.body.type).toMatch(/\/problems\/rate-limited$/);
      expect(Number(account.headers['retry-after'])).toBeGreaterThan(0);
      expect(await hashOf(first.user.id)).toBe(before);
      // The address's limit, for another account.
      await put(second.jwt, { password: 'limited password four' }, shared).expect(429);
      expect(await hashOf(second.user.id)).toBeUndefined();
      await put(second.jwt, { password: 'limited password four' }).expect(200);
    } finally {
      await settings({ 'ratelimit.password_checks_per_hour': 20 });
    }
  });

  it('answers 503 with Retry-After past the cap of hashes at once, and counts nothing for the refused', async () => {
    const { user, jwt } = await userWithSession(app, 'busy');
    await put(jwt, { password: 'busy has a long password' }).expect(200);
    const answers = await Promise.all(Array.from({ length: 6 }, () => signIn('busy', 'busy has a long password')));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses).toContain(200);
    expect(statuses).toContain(503);
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    const busy = answers.find((answer) => answer.status === 503)!;
    expect(busy.body.type).toMatch(/\/problems\/password-hashing-busy$/);
    expect(busy.headers['retry-after']).toBe('1');
    // A refused attempt is not a failed sign-in: only the wrong ones that were checked are.
    const wrong = await Promise.all(Array.from({ length: 4 }, (_, i) => signIn('busy', `not it ${i}`)));
    const checked = wrong.filter((answer) => answer.status === 401).length;
    expect(checked + wrong.filter((answer) => answer.status === 503).length).toBe(4);
    const failures = await app.database.dataSource.query(
      `SELECT count(*)::int AS n FROM audit_entry WHERE action = 'user.sign_in_failed' AND details->>'userId' = $1`,
      [user.id],
    );
    expect(failures[0].n).toBe(checked);
  });

  it('sends a failed no-script sign-in back to /sign-in without the login, and logs no login or password of a URL', async () => {
    const typed = 'my-secret-password-typed-as-login';
    const failed = await request(app.url)
      .post('/api/auth/sign-in/password')
      .set('X-Forwarded-For', freshIp())
      .set('Origin', app.config.baseUrl)
      .type('form')
      .send({ login: typed, password: 'whatever it was' })
      .expect(303);
    expect(failed.headers.location).toBe('/sign-in?error=sign-in-failed');

    await request(app.url)
      .get(`/sign-in?login=${typed}&password=hunter22hunter22&next=%2Fadmin`)
      .set('X-Request-Id', 'redaction-1')
      .expect(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const line = log.lines.find((entry) => entry.includes('"redaction-1"') && entry.includes('request completed'));
    expect(line).toBeDefined();
    expect(JSON.parse(line!).req.url).toBe('/sign-in?login=%5BRedacted%5D&password=%5BRedacted%5D&next=%2Fadmin');
    for (const entry of log.lines) {
      expect(entry).not.toContain(typed);
      expect(entry).not.toContain('hunter22hunter22');
    }
  });
});
