import type { MigrationInterface, QueryRunner } from 'typeorm';

export class MirrorMode1795827266136 implements MigrationInterface {
  name = 'MirrorMode1795827266136';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "mirrored_key" ("kid" character varying(64) NOT NULL, "jwk" jsonb NOT NULL, "position" integer NOT NULL, "fetched_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_5969f34ff45990fcd3fdec7c384" PRIMARY KEY ("kid"))',
    );
    await queryRunner.query(
      'CREATE TABLE "mirror_failure" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "slug" character varying(64) NOT NULL, "version" character varying(64) NOT NULL, "code" character varying(40) NOT NULL, "message" character varying(500) NOT NULL, "failed_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_5636d677368d276bcb5d3c1a777" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "idx_mirror_failure_at" ON "mirror_failure"  ("failed_at") ');
    await queryRunner.query(
      'CREATE TABLE "mirror_state" ("id" integer NOT NULL, "upstream" character varying(2048) NOT NULL, "cursor" character varying(24), "last_poll_at" TIMESTAMP WITH TIME ZONE, "last_error" character varying(500), CONSTRAINT "PK_1119aef40af3348fa07556a2576" PRIMARY KEY ("id"))',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "mirror_state"');
    await queryRunner.query('DROP INDEX "public"."idx_mirror_failure_at"');
    await queryRunner.query('DROP TABLE "mirror_failure"');
    await queryRunner.query('DROP TABLE "mirrored_key"');
  }
}
