import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outbound webhooks keep none of a receiver's answer any more (a subscription's owner could point
 * it at an internal service and read the answer back): a delivery records the status and how long
 * the attempt took. `detail` held the start of the answer after a success, and a replayed
 * delivery kept it while queued; it cannot be told apart from a failure's reason by its text, so
 * every detail written before goes. Reasons written from now on are generic phrases only.
 */
export class SubscriptionAnswersNotKept1796622684557 implements MigrationInterface {
  name = 'SubscriptionAnswersNotKept1796622684557';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "subscription_delivery" ADD "duration_ms" integer');
    await queryRunner.query('UPDATE "subscription_delivery" SET "detail" = NULL WHERE "detail" IS NOT NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "subscription_delivery" DROP COLUMN "duration_ms"');
  }
}
