import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outbound webhooks' delivery worker (docs/subscriptions.md): the worker's claim gets one
 * partial index per branch of its predicate (due queued rows by next_attempt_at, processing rows
 * whose lease lapsed by locked_until); a subscription gets its in-flight lease (one attempt per
 * subscription at a time) and the time of its last failure (a failing run goes stale after a quiet
 * spell).
 */
export class SubscriptionClaimAndStreak1795835105924 implements MigrationInterface {
  name = 'SubscriptionClaimAndStreak1795835105924';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."idx_subscription_delivery_due"');
    await queryRunner.query('ALTER TABLE "subscription" ADD "last_failed_at" TIMESTAMP WITH TIME ZONE');
    await queryRunner.query('ALTER TABLE "subscription" ADD "in_flight_until" TIMESTAMP WITH TIME ZONE');
    await queryRunner.query(
      'CREATE INDEX "idx_subscription_delivery_processing" ON "subscription_delivery"  ("locked_until") WHERE "status" = \'processing\'',
    );
    await queryRunner.query(
      'CREATE INDEX "idx_subscription_delivery_queued" ON "subscription_delivery"  ("next_attempt_at") WHERE "status" = \'queued\'',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."idx_subscription_delivery_queued"');
    await queryRunner.query('DROP INDEX "public"."idx_subscription_delivery_processing"');
    await queryRunner.query('ALTER TABLE "subscription" DROP COLUMN "in_flight_until"');
    await queryRunner.query('ALTER TABLE "subscription" DROP COLUMN "last_failed_at"');
    await queryRunner.query('CREATE INDEX "idx_subscription_delivery_due" ON "subscription_delivery" ("status", "next_attempt_at") ');
  }
}
