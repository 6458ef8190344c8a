/**
 * A database holding webhook replays stored before the WebhookDeliveryPayloadUnique migration (the
 * same body under several delivery ids) comes through it: one row of each replay group stays (the
 * one that succeeded, else the first), every other delivery is untouched, and a further replay is
 * refused by the new key.
 */
import type { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../src/database/migrations';
import { openMigrationTarget, type MigrationTarget } from '../support/migration-target';

describe('migration WebhookDeliveryPayloadUnique on replays stored before it', () => {
  let database: MigrationTarget;

  beforeAll(async () => {
    database = await openMigrationTarget();
  });
  afterAll(() => database?.drop());

  const migrated = (upTo: number): Promise<DataSource> => database.migrated(upTo);

  it('keeps one row of each replay group and refuses the next replay', async () => {
    const before = MIGRATIONS.findIndex((m) => m.name.startsWith('WebhookDeliveryPayloadUnique'));
    expect(before).toBeGreaterThan(0);
    const old = await migrated(before);
    const [plugin] = await old.query(
      `INSERT INTO plugin (slug, name, repo_url, repo_identity) VALUES ('hooked', 'hooked', 'https://h/o/r', 'h/o/r') RETURNING id`,
    );
    const insert = (deliveryId: string, tag: string, sha: string, status: string, createdAt: string) =>
      old.query(
        `INSERT INTO webhook_delivery (plugin_id, provider, delivery_id, event, source, repo_url, tag, payload_sha256, status, next_attempt_at, created_at)
         VALUES ($1, 'github', $2, 'release', 'webhook', 'https://h/o/r', $3, $4, $5, now(), $6)`,
        [plugin.id, deliveryId, tag, sha, status, createdAt],
      );
    const body = 'a'.repeat(64);
    // v1: the first delivery failed, its replay succeeded; a third replay was skipped.
    await insert('d1', 'v1', body, 'failed', '2026-01-01T00:00:00Z');
    await insert('d2', 'v1', body, 'succeeded', '2026-01-01T00:01:00Z');
    await insert('d3', 'v1', body, 'skipped', '2026-01-01T00:02:00Z');
    // v2: two replays, neither succeeded: the first stays.
    await insert('d4', 'v2', 'b'.repeat(64), 'failed', '2026-01-02T00:00:00Z');
    await insert('d5', 'v2', 'b'.repeat(64), 'failed', '2026-01-02T00:01:00Z');
    // Different bodies of one tag, and a reconcile (no body): all kept.
    await insert('d6', 'v3', 'c'.repeat(64), 'succeeded', '2026-01-03T00:00:00Z');
    await insert('d7', 'v3', 'd'.repeat(64), 'skipped', '2026-01-03T00:01:00Z');
    await insert('reconcile:x:v4', 'v4', '', 'succeeded', '2026-01-04T00:00:00Z');
    await old.destroy();

    const current = await migrated(MIGRATIONS.length);
    try {
      const rows: { delivery_id: string }[] = await current.query(`SELECT delivery_id FROM webhook_delivery ORDER BY delivery_id`);
      expect(rows.map((r) => r.delivery_id)).toEqual(['d2', 'd4', 'd6', 'd7', 'reconcile:x:v4']);
      await expect(
        current.query(
          `INSERT INTO webhook_delivery (plugin_id, provider, delivery_id, event, source, repo_url, tag, payload_sha256, status, next_attempt_at)
           VALUES ($1, 'github', 'd8', 'release', 'webhook', 'https://h/o/r', 'v1', $2, 'queued', now())`,
          [plugin.id, body],
        ),
      ).rejects.toThrow(/uq_webhook_delivery_payload/);
    } finally {
      await current.destroy();
    }
  });
});
