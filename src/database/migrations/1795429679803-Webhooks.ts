import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Webhooks1795429679803 implements MigrationInterface {
  name = 'Webhooks1795429679803';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "plugin_webhook" ("plugin_id" uuid NOT NULL, "secret_sealed" bytea NOT NULL, "hook_installed" boolean NOT NULL DEFAULT false, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b286930ad3c0bdc03a372afaf85" PRIMARY KEY ("plugin_id"))',
    );
    await queryRunner.query(
      'CREATE TABLE "webhook_delivery" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "plugin_id" uuid NOT NULL, "provider" character varying(16) NOT NULL, "delivery_id" character varying(200) NOT NULL, "event" character varying(64) NOT NULL, "source" character varying(10) NOT NULL DEFAULT \'webhook\', "repo_url" character varying(2048) NOT NULL, "tag" character varying(255) NOT NULL, "assets" jsonb, "payload_sha256" character varying(64) NOT NULL, "status" character varying(12) NOT NULL, "reason" character varying(64), "detail" character varying(1000), "violations" jsonb, "version" character varying(64), "attempts" integer NOT NULL DEFAULT \'0\', "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL, "locked_until" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "finished_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_b1ae290239a778f12399db91354" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "ix_webhook_delivery_due" ON "webhook_delivery"  ("status", "next_attempt_at") ');
    await queryRunner.query('CREATE INDEX "ix_webhook_delivery_plugin" ON "webhook_delivery"  ("plugin_id", "created_at") ');
    await queryRunner.query('CREATE UNIQUE INDEX "uq_webhook_delivery" ON "webhook_delivery"  ("provider", "delivery_id") ');
    await queryRunner.query(
      'ALTER TABLE "plugin_webhook" ADD CONSTRAINT "FK_b286930ad3c0bdc03a372afaf85" FOREIGN KEY ("plugin_id") REFERENCES "plugin"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "webhook_delivery" ADD CONSTRAINT "FK_f7617f5580478bb963165140445" FOREIGN KEY ("plugin_id") REFERENCES "plugin"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "webhook_delivery" DROP CONSTRAINT "FK_f7617f5580478bb963165140445"');
    await queryRunner.query('ALTER TABLE "plugin_webhook" DROP CONSTRAINT "FK_b286930ad3c0bdc03a372afaf85"');
    await queryRunner.query('DROP INDEX "public"."uq_webhook_delivery"');
    await queryRunner.query('DROP INDEX "public"."ix_webhook_delivery_plugin"');
    await queryRunner.query('DROP INDEX "public"."ix_webhook_delivery_due"');
    await queryRunner.query('DROP TABLE "webhook_delivery"');
    await queryRunner.query('DROP TABLE "plugin_webhook"');
  }
}
