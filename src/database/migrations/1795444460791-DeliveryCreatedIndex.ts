import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Deliveries by when they arrived: the admin-wide list, newest first, without sorting every delivery. */
export class DeliveryCreatedIndex1795444460791 implements MigrationInterface {
  name = 'DeliveryCreatedIndex1795444460791';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE INDEX "ix_webhook_delivery_created" ON "webhook_delivery" ("created_at")');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "ix_webhook_delivery_created"');
  }
}
