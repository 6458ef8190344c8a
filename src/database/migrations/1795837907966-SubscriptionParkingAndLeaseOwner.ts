import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Parks (status 'parked', which the claim never reads) the queued deliveries of a subscription
 * or a user when either is disabled, and queues them again when both are enabled, whichever
 * path disables them (the worker, an admin, the CLI): so the claim's index holds only rows it
 * may take.
 */
const PARK_ON_SUBSCRIPTION = `CREATE OR REPLACE FUNCTION subscription_park_on_disable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.disabled_at IS NOT NULL THEN
    UPDATE subscription_delivery SET status = 'parked' WHERE subscription_id = NEW.id AND status = 'queued';
  ELSIF NOT EXISTS (SELECT 1 FROM user_account u WHERE u.id = NEW.user_id AND u.disabled_at IS NOT NULL) THEN
    UPDATE subscription_delivery SET status = 'queued' WHERE subscription_id = NEW.id AND status = 'parked';
  END IF;
  RETURN NULL;
END
$$`;

const PARK_ON_USER = `CREATE OR REPLACE FUNCTION subscription_park_on_user_disable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.disabled_at IS NOT NULL THEN
    UPDATE subscription_delivery d SET status = 'parked' FROM subscription s
    WHERE s.user_id = NEW.id AND d.subscription_id = s.id AND d.status = 'queued';
  ELSE
    UPDATE subscription_delivery d SET status = 'queued' FROM subscription s
    WHERE s.user_id = NEW.id AND s.disabled_at IS NULL AND d.subscription_id = s.id AND d.status = 'parked';
  END IF;
  RETURN NULL;
END
$$`;

/**
 * The outbound webhooks' delivery worker, revised again (docs/subscriptions.md): deliveries of
 * disabled subscriptions or users are parked; a subscription's in-flight lease names the claim that
 * holds it (delivery id and attempts), so only that claim renews or clears it; the failing run's
 * quiet-spell rule is gone, and with it last_failed_at.
 */
export class SubscriptionParkingAndLeaseOwner1795837907966 implements MigrationInterface {
  name = 'SubscriptionParkingAndLeaseOwner1795837907966';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "subscription" DROP COLUMN "last_failed_at"');
    await queryRunner.query('ALTER TABLE "subscription" ADD "in_flight_delivery_id" uuid');
    await queryRunner.query('ALTER TABLE "subscription" ADD "in_flight_attempts" integer');
    await queryRunner.query(PARK_ON_SUBSCRIPTION);
    await queryRunner.query(PARK_ON_USER);
    await queryRunner.query(
      'CREATE TRIGGER subscription_park_on_disable AFTER UPDATE OF disabled_at ON "subscription" FOR EACH ROW WHEN (OLD.disabled_at IS DISTINCT FROM NEW.disabled_at) EXECUTE FUNCTION subscription_park_on_disable()',
    );
    await queryRunner.query(
      'CREATE TRIGGER subscription_park_on_user_disable AFTER UPDATE OF disabled_at ON "user_account" FOR EACH ROW WHEN (OLD.disabled_at IS DISTINCT FROM NEW.disabled_at) EXECUTE FUNCTION subscription_park_on_user_disable()',
    );
    await queryRunner.query(
      `UPDATE subscription_delivery d SET status = 'parked' FROM subscription s JOIN user_account u ON u.id = s.user_id
       WHERE d.subscription_id = s.id AND d.status = 'queued' AND (s.disabled_at IS NOT NULL OR u.disabled_at IS NOT NULL)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE subscription_delivery SET status = 'queued' WHERE status = 'parked'`);
    await queryRunner.query('DROP TRIGGER subscription_park_on_user_disable ON "user_account"');
    await queryRunner.query('DROP TRIGGER subscription_park_on_disable ON "subscription"');
    await queryRunner.query('DROP FUNCTION subscription_park_on_user_disable()');
    await queryRunner.query('DROP FUNCTION subscription_park_on_disable()');
    await queryRunner.query('ALTER TABLE "subscription" DROP COLUMN "in_flight_attempts"');
    await queryRunner.query('ALTER TABLE "subscription" DROP COLUMN "in_flight_delivery_id"');
    await queryRunner.query('ALTER TABLE "subscription" ADD "last_failed_at" TIMESTAMP WITH TIME ZONE');
  }
}
