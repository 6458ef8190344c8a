/**
 * A database holding queued subscription deliveries before the SubscriptionParkingAndLeaseOwner
 * migration comes through it: those of a disabled subscription or of a disabled user are parked,
 * the rest stay queued; and down() queues them all again and brings last_failed_at back.
 */
import type { DataSource } from 'typeorm';
import { openMigrationTarget, type MigrationTarget } from '../support/migration-target';

describe('migration SubscriptionParkingAndLeaseOwner on deliveries queued before it', () => {
  let database: MigrationTarget;

  beforeAll(async () => {
    database = await openMigrationTarget();
  });
  afterAll(() => database?.drop());

  it('parks the queued deliveries of disabled subscriptions and users, and down() queues them again', async () => {
    const before = database.before('SubscriptionParkingAndLeaseOwner');
    const old = await database.migrated(before);
    const [active] = await old.query(`INSERT INTO user_account (instance, login) VALUES ('github', 'active-owner') RETURNING id`);
    const [gone] = await old.query(
      `INSERT INTO user_account (instance, login, disabled_at) VALUES ('github', 'disabled-owner', now()) RETURNING id`,
    );
    const subscription = async (userId: string, path: string, disabled: boolean) =>
      (
        await old.query(
          `INSERT INTO subscription (user_id, url, events, scope, secret_sealed, disabled_at) VALUES ($1, $2, '{plugin.deprecated}', 'owned', '\\x00', $3) RETURNING id`,
          [userId, `https://receiver.example/${path}`, disabled ? new Date() : null],
        )
      )[0].id as string;
    const ok = await subscription(active.id, 'ok', false);
    const off = await subscription(active.id, 'off', true);
    const ownerOff = await subscription(gone.id, 'owner-off', false);
    const [event] = await old.query(
      `INSERT INTO subscription_event (id, type, action, created_at) VALUES (gen_random_uuid(), 'plugin.deprecated', 'plugin.deprecate', now()) RETURNING id`,
    );
    for (const id of [ok, off, ownerOff])
      await old.query(`INSERT INTO subscription_delivery (subscription_id, event_id) VALUES ($1, $2)`, [id, event.id]);
    await old.destroy();

    const statuses = async (source: DataSource) =>
      Object.fromEntries(
        (await source.query(`SELECT s.url, d.status FROM subscription_delivery d JOIN subscription s ON s.id = d.subscription_id`)).map(
          (row: { url: string; status: string }) => [new URL(row.url).pathname, row.status],
        ),
      );
    const current = await database.migrated(before + 1);
    try {
      expect(await statuses(current)).toEqual({ '/ok': 'queued', '/off': 'parked', '/owner-off': 'parked' });
      await current.undoLastMigration({ transaction: 'each' });
      expect(await statuses(current)).toEqual({ '/ok': 'queued', '/off': 'queued', '/owner-off': 'queued' });
      const columns = (await current.query(`SELECT column_name FROM information_schema.columns WHERE table_name = 'subscription'`)).map(
        (row: { column_name: string }) => row.column_name,
      );
      expect(columns).toEqual(expect.arrayContaining(['last_failed_at', 'failing_since']));
      expect(columns).not.toContain('in_flight_delivery_id');
      expect(columns).not.toContain('in_flight_attempts');
    } finally {
      await current.destroy();
    }
  });
});
