import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Foundation1795256007857 implements MigrationInterface {
  name = 'Foundation1795256007857';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "audit_entry" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "action" character varying(64) NOT NULL, "actor_user_id" uuid, "actor_token_id" uuid, "slug" character varying(64), "ip" character varying(45), "details" jsonb NOT NULL DEFAULT \'{}\', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_58a130a4b9da189f46ba2a01801" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "idx_audit_entry_slug_created_at" ON "audit_entry"  ("slug", "created_at") ');
    await queryRunner.query('CREATE INDEX "idx_audit_entry_action_created_at" ON "audit_entry"  ("action", "created_at") ');
    await queryRunner.query('CREATE INDEX "idx_audit_entry_created_at" ON "audit_entry"  ("created_at") ');
    await queryRunner.query(
      'CREATE TABLE "app_setting" ("key" character varying(100) NOT NULL, "value" jsonb NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_0d66bfb0d9f93124a4549d21af0" PRIMARY KEY ("key"))',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "app_setting"');
    await queryRunner.query('DROP INDEX "public"."idx_audit_entry_created_at"');
    await queryRunner.query('DROP INDEX "public"."idx_audit_entry_action_created_at"');
    await queryRunner.query('DROP INDEX "public"."idx_audit_entry_slug_created_at"');
    await queryRunner.query('DROP TABLE "audit_entry"');
  }
}
