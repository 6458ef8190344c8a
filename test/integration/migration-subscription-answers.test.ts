/**
 * A database holding deliveries whose `detail` kept the start of a receiver's answer (before the
 * SubscriptionAnswersNotKept migration): the migration clears every stored detail and adds
 * `duration_ms`; down() drops the column again.
 */
import { openMigrationTarget, type MigrationTarget } from '../support/migration-target';

describe('migration SubscriptionAnswersNotKept on deliveries stored before it', () => {
  let database: MigrationTarget;

  beforeAll(async () => {
    database = await openMigrationTarget();
  });
  afterAll(() => database?.drop());

  it('clears every stored detail, a replayed delivery still queued included', async () => {
    const before = database.before('SubscriptionAnswersNotKept');
    const old = await database.migrated(before);
    const [user] = await old.query(`INSERT INTO user_account (instance, login) VALUES ('github', 'answer-owner') RETURNING id`);
    const [subscription] = await old.query(
      `INSERT INTO subscription (user_id, url, events, scope, secret_sealed) VALUES ($1, 'https://receiver.example/x', '{plugin.deprecated}', 'owned', '\\x00') RETURNING id`,
      [user.id],
    );
    const event = async () =>
      (
        await old.query(
          `INSERT INTO subscription_event (id, type, action, created_at) VALUES (gen_random_uuid(), 'plugin.deprecated', 'plugin.deprecate', now()) RETURNING id`,
        )
      )[0].id as string;
    for (const [status, detail] of [
      ['succeeded', 'internal secret answer'],
      ['queued', 'answer kept from before a replay'],
      ['failed', 'gave up after 8 attempts: HTTP 500 from receiver.example'],
    ]) {
      await old.query(
        `INSERT INTO subscription_delivery (subscription_id, event_id, status, response_status, detail) VALUES ($1, $2, $3, 200, $4)`,
        [subscription.id, await event(), status, detail],
      );
    }
    await old.destroy();

    const current = await database.migrated(before + 1);
    try {
      const rows = await current.query(`SELECT status, response_status, detail, duration_ms FROM subscription_delivery ORDER BY status`);
      expect(rows).toEqual([
        { status: 'failed', response_status: 200, detail: null, duration_ms: null },
        { status: 'queued', response_status: 200, detail: null, duration_ms: null },
        { status: 'succeeded', response_status: 200, detail: null, duration_ms: null },
      ]);
      await current.undoLastMigration({ transaction: 'each' });
      const columns = (
        await current.query(`SELECT column_name FROM information_schema.columns WHERE table_name = 'subscription_delivery'`)
      ).map((row: { column_name: string }) => row.column_name);
      expect(columns).not.toContain('duration_ms');
    } finally {
      await current.destroy();
    }
  });
});
