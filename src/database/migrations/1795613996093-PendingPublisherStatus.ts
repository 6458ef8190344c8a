import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A pending publisher can be displaced (the repository owner's registration came first): it stays
 * for its user to read why, and only active entries hold their slug and their repository.
 */
export class PendingPublisherStatus1795613996093 implements MigrationInterface {
  name = 'PendingPublisherStatus1795613996093';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "pending_publisher" ADD "status" character varying(16) NOT NULL DEFAULT 'active'`);
    await queryRunner.query(`ALTER TABLE "pending_publisher" ADD "status_reason" character varying(500)`);
    await queryRunner.query(`ALTER TABLE "pending_publisher" ADD "status_changed_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `ALTER TABLE "pending_publisher" ADD CONSTRAINT "ck_pending_publisher_status" CHECK ("status" IN ('active', 'displaced'))`,
    );
    await queryRunner.query(`DROP INDEX "public"."uq_pending_publisher_slug"`);
    await queryRunner.query(`DROP INDEX "public"."uq_pending_publisher_repository"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_pending_publisher_slug" ON "pending_publisher" ("slug") WHERE "status" = 'active'`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_pending_publisher_repository" ON "pending_publisher" ("forge", "repository_id") WHERE "status" = 'active'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "pending_publisher" WHERE "status" <> 'active'`);
    await queryRunner.query(`DROP INDEX "public"."uq_pending_publisher_repository"`);
    await queryRunner.query(`DROP INDEX "public"."uq_pending_publisher_slug"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_pending_publisher_repository" ON "pending_publisher" ("forge", "repository_id")`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_pending_publisher_slug" ON "pending_publisher" ("slug")`);
    await queryRunner.query(`ALTER TABLE "pending_publisher" DROP CONSTRAINT "ck_pending_publisher_status"`);
    await queryRunner.query(`ALTER TABLE "pending_publisher" DROP COLUMN "status_changed_at"`);
    await queryRunner.query(`ALTER TABLE "pending_publisher" DROP COLUMN "status_reason"`);
    await queryRunner.query(`ALTER TABLE "pending_publisher" DROP COLUMN "status"`);
  }
}
