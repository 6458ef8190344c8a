import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A delivery replayed under a new delivery id (same forge, plugin, tag and body) is a duplicate.
 * Replays stored before this key existed were processed again; one row of each group stays (the
 * one that succeeded, else the first), the others go, so the key can be created.
 */
export class WebhookDeliveryPayloadUnique1795614549782 implements MigrationInterface {
  name = 'WebhookDeliveryPayloadUnique1795614549782';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DELETE FROM "webhook_delivery" WHERE "id" IN (
         SELECT "id" FROM (
           SELECT "id", row_number() OVER (
             PARTITION BY "provider", "plugin_id", "tag", "payload_sha256" ORDER BY ("status" = 'succeeded') DESC, "created_at", "id") AS "rank"
           FROM "webhook_delivery") AS "ranked"
         WHERE "rank" > 1)`,
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_webhook_delivery_payload" ON "webhook_delivery"  ("provider", "plugin_id", "tag", "payload_sha256") ',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."uq_webhook_delivery_payload"');
  }
}
