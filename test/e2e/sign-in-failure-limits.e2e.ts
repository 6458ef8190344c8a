/**
 * The address's failure limit (setting ratelimit.signin_failures_per_ip) for the ways in that are
 * not passwords: passkey sign-in, step-up with a passkey and sign-in links. Each attempt is counted
 * as it starts and handed back when it succeeds (as passwords are), so attempts sent at once
 * cannot reach verification more often than the limit. Passwords: local-sign-in.e2e.ts.
 */
import request from 'supertest';
import { issueSignInLink } from '../../src/accounts/local-sign-in/sign-in-links';
import { userWithSession } from '../support/sessions';
import { SoftAuthenticator } from '../support/soft-authenticator';
import { startTestApp, type TestApp } from '../support/test-app';

const LIMIT = 3;
const AT_ONCE = 12;

describe('sign-in failures per address, counted as they start', () => {
  let app: TestApp;
  let ipCounter = 0;
  const freshIp = () => `198.51.100.${++ipCounter}`;
  let user: { jwt: string; userId: string; authenticator: SoftAuthenticator };
  /** A credential no account has: every answer it signs is a verification that fails. */
  const stranger = new SoftAuthenticator('http://127.0.0.1');

  beforeAll(async () => {
    app = await startTestApp();
    const admin = await userWithSession(app, 'root-failures', 'admin');
    await request(app.url)
      .patch('/api/admin/settings')
      .set('Authorization', `Bearer ${admin.jwt}`)
      .send({ 'ratelimit.signin_failures_per_ip': LIMIT })
      .expect(200);
    const made = await userWithSession(app, 'holder');
    const authenticator = new SoftAuthenticator(app.config.baseUrl);
    const options = await request(app.url)
      .post('/api/auth/me/passkeys/options')
      .set('Authorization', `Bearer ${made.jwt}`)
      .send({})
      .expect(200);
    await request(app.url)
      .post('/api/auth/me/passkeys')
      .set('Authorization', `Bearer ${made.jwt}`)
      .send({ name: 'Key', response: authenticator.register(options.body.options) })
      .expect(201);
    user = { jwt: made.jwt, userId: made.user.id, authenticator };
    stranger.register({ challenge: 'unused', user: { id: 'nobody' } });
  });
  afterAll(() => app?.close());

  const signInOptions = async () => (await request(app.url).post('/api/auth/sign-in/passkey/options').send({}).expect(200)).body.options;
  const stepUpOptions = async () =>
    (await request(app.url).post('/api/auth/me/step-up/options').set('Authorization', `Bearer ${user.jwt}`).send({}).expect(200)).body
      .options;
  const link = async () =>
    new URL(
      (
        await issueSignInLink(app.database.dataSource, {
          userId: user.userId,
          login: 'holder',
          baseUrl: app.config.baseUrl,
          now: new Date(),
          via: 'api',
        })
      ).url,
    ).searchParams.get('token')!;

  /** Each way in: a failing attempt (its answer made beforehand, so all go at once) and a successful one. */
  const ways = [
    {
      name: 'passkey sign-in',
      refused: 401,
      prepare: async () => stranger.authenticate(await signInOptions()),
      send: (answer: unknown, ip: string) =>
        request(app.url).post('/api/auth/sign-in/passkey').set('X-Forwarded-For', ip).send({ response: answer }),
      succeed: async (ip: string) =>
        request(app.url)
          .post('/api/auth/sign-in/passkey')
          .set('X-Forwarded-For', ip)
          .send({ response: user.authenticator.authenticate(await signInOptions()) }),
    },
    {
      name: 'step-up with a passkey',
      refused: 403,
      prepare: async () => stranger.authenticate(await stepUpOptions()),
      send: (answer: unknown, ip: string) =>
        request(app.url)
          .post('/api/auth/me/step-up')
          .set('Authorization', `Bearer ${user.jwt}`)
          .set('X-Forwarded-For', ip)
          .send({ passkey: answer }),
      succeed: async (ip: string) =>
        request(app.url)
          .post('/api/auth/me/step-up')
          .set('Authorization', `Bearer ${user.jwt}`)
          .set('X-Forwarded-For', ip)
          .send({ passkey: user.authenticator.authenticate(await stepUpOptions()) }),
    },
    {
      name: 'a sign-in link',
      refused: 404,
      prepare: async () => 'A'.repeat(43),
      send: (token: unknown, ip: string) => request(app.url).post('/api/auth/sign-in/link').set('X-Forwarded-For', ip).send({ token }),
      succeed: async (ip: string) =>
        request(app.url)
          .post('/api/auth/sign-in/link')
          .set('X-Forwarded-For', ip)
          .send({ token: await link() }),
    },
  ];

  describe.each(ways)('$name', (way) => {
    it(`lets at most ${LIMIT} of ${AT_ONCE} failing attempts sent at once reach verification; the rest get 429`, async () => {
      const answers = await Promise.all(Array.from({ length: AT_ONCE }, () => way.prepare()));
      const ip = freshIp();
      const replies = await Promise.all(answers.map((answer) => way.send(answer, ip)));
      const statuses = replies.map((reply) => reply.status);
      expect(statuses.filter((status) => status === way.refused)).toHaveLength(LIMIT);
      expect(statuses.filter((status) => status === 429)).toHaveLength(AT_ONCE - LIMIT);
      const limited = replies.find((reply) => reply.status === 429)!;
      expect(limited.body.type).toMatch(/\/problems\/rate-limited$/);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('hands a successful attempt back: successes past the limit count nothing', async () => {
      const ip = freshIp();
      for (let i = 0; i < LIMIT - 1; i++) await way.send(await way.prepare(), ip).expect(way.refused);
      for (let i = 0; i < LIMIT; i++) expect((await way.succeed(ip)).status).toBeLessThan(300);
      // One failure is still left to this address, then it is refused.
      await way.send(await way.prepare(), ip).expect(way.refused);
      await way.send(await way.prepare(), ip).expect(429);
    });
  });
});
