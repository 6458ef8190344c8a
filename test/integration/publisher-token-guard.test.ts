import { Controller, Get, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { configureHttp } from '../../src/app.factory';
import { AuditModule } from '../../src/platform/audit/audit.module';
import type { AuthContext } from '../../src/platform/auth/auth-context';
import { Auth } from '../../src/platform/auth/auth.decorators';
import { Clock } from '../../src/common/clock';
import { CommonModule } from '../../src/common/common.module';
import { RedisModule } from '../../src/common/redis/redis.module';
import { createLogger } from '../../src/common/logging/logger';
import { loadConfig } from '../../src/config/config';
import { ConfigModule } from '../../src/config/config.module';
import { openDatabase, type DatabaseHandle } from '../../src/database/database-handle';
import { DatabaseModule } from '../../src/database/database.module';
import { PublisherTokenAuth } from '../../src/accounts/tokens/publisher-token.guard';
import { TokensModule } from '../../src/accounts/tokens/tokens.module';
import { TokensService } from '../../src/accounts/tokens/tokens.service';
import { UsersRepository } from '../../src/platform/users/users.repository';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

class MovableClock extends Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

@Controller('probe')
class ProbeController {
  @Get()
  @PublisherTokenAuth()
  who(@Auth() auth: AuthContext) {
    return { kind: auth.kind, login: auth.user.login };
  }
}

describe('the publisher-token guard', () => {
  let db: TestDatabase;
  let database: DatabaseHandle;
  let app: NestExpressApplication;
  const clock = new MovableClock();
  let tokens: TokensService;
  let users: UsersRepository;

  const make = async (login: string, expiresAt: number | null = null) => {
    const user = await users.createLocal({ login, email: null, role: 'user' });
    const created = await tokens.create(
      { kind: 'session', user, sessionId: 's', via: 'bearer', verifiedAt: clock.now() },
      { name: 't', scopes: ['publish:*'], expiresAt },
      null,
    );
    return { user, ...created };
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    const config = loadConfig({ NODE_ENV: 'test', ...db.env });
    database = await openDatabase(config, { embeddedMode: 'own', migrate: true });
    @Module({
      imports: [ConfigModule.forRoot(config), CommonModule, DatabaseModule.forRoot(database), RedisModule, AuditModule, TokensModule],
      controllers: [ProbeController],
    })
    class ProbeModule {}
    const moduleRef = await Test.createTestingModule({ imports: [ProbeModule] })
      .overrideProvider(Clock)
      .useValue(clock)
      .compile();
    app = moduleRef.createNestApplication<NestExpressApplication>({ logger: false, bodyParser: false });
    configureHttp(app, config, createLogger('silent'));
    await app.init();
    tokens = app.get(TokensService);
    users = app.get(UsersRepository);
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
    await db?.drop();
  });

  it('lets an active token through, naming its owner', async () => {
    const { token } = await make('active-owner');
    const res = await request(app.getHttpServer()).get('/probe').set('Authorization', `Bearer ${token}`).expect(200);
    expect(res.body).toEqual({ kind: 'token', login: 'active-owner' });
  });

  it.each([
    ['missing', undefined],
    ['malformed', 'Bearer prt_short'],
    ['not a publisher token', 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.x'],
    ['unknown', `Bearer prt_${'A'.repeat(40)}`],
  ])('answers 401 for a %s token', async (_label, header) => {
    const req = request(app.getHttpServer()).get('/probe');
    const res = await (header ? req.set('Authorization', header) : req).expect(401);
    expect(res.headers['content-type']).toMatch(/problem\+json/);
  });

  it('answers 401 once the token expired, judged at use time', async () => {
    const { token } = await make('expiring', Date.now() + 60_000);
    await request(app.getHttpServer()).get('/probe').set('Authorization', `Bearer ${token}`).expect(200);
    clock.offsetMs = 61_000;
    try {
      await request(app.getHttpServer()).get('/probe').set('Authorization', `Bearer ${token}`).expect(401);
    } finally {
      clock.offsetMs = 0;
    }
  });

  it('answers 401 at once after revocation', async () => {
    const { token, row, user } = await make('revoker');
    await request(app.getHttpServer()).get('/probe').set('Authorization', `Bearer ${token}`).expect(200);
    await tokens.revoke({ kind: 'session', user, sessionId: 's', via: 'bearer' }, row.id, null);
    await request(app.getHttpServer()).get('/probe').set('Authorization', `Bearer ${token}`).expect(401);
  });

  it("answers 401 when the owner's account is disabled", async () => {
    const { token, user } = await make('disabled-owner');
    await database.dataSource.query('UPDATE user_account SET disabled_at = now() WHERE id = $1', [user.id]);
    await request(app.getHttpServer()).get('/probe').set('Authorization', `Bearer ${token}`).expect(401);
  });
});
