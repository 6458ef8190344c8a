import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Forge instances admins add at run time (the client secret sealed with KEY_ENCRYPTION_KEY), and
 * a one-row version every statement that writes them moves (a trigger, so plain SQL moves it too):
 * each server compares it with its loaded list's version and reloads when it moved.
 */
export class ForgeInstances1795811004571 implements MigrationInterface {
  name = 'ForgeInstances1795811004571';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "forge_instance_version" ("id" smallint NOT NULL, "version" bigint NOT NULL DEFAULT \'0\', CONSTRAINT "ck_forge_instance_version_single_row" CHECK ("id" = 1), CONSTRAINT "PK_68803671b623a12978f6c8bdf47" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE TABLE "forge_instance" ("name" character varying(40) NOT NULL, "type" character varying(16) NOT NULL, "web_url" character varying(2048) NOT NULL, "api_url" character varying(2048) NOT NULL, "client_id" character varying(255) NOT NULL, "client_secret_sealed" bytea NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_by" uuid, CONSTRAINT "chk_forge_instance_type" CHECK ("type" IN (\'github\', \'gitlab\', \'gitea\', \'forgejo\')), CONSTRAINT "PK_11b3e3cfc45d1e000ad9c4071ba" PRIMARY KEY ("name"))',
    );
    await queryRunner.query('INSERT INTO "forge_instance_version" ("id", "version") VALUES (1, 0)');
    await queryRunner.query(`CREATE FUNCTION "bump_forge_instance_version"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE "forge_instance_version" SET "version" = "version" + 1 WHERE "id" = 1;
        RETURN NULL;
      END
    $$`);
    await queryRunner.query(
      'CREATE TRIGGER "forge_instance_bumps_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "forge_instance" FOR EACH STATEMENT EXECUTE FUNCTION "bump_forge_instance_version"()',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER "forge_instance_bumps_version" ON "forge_instance"');
    await queryRunner.query('DROP FUNCTION "bump_forge_instance_version"()');
    await queryRunner.query('DROP TABLE "forge_instance"');
    await queryRunner.query('DROP TABLE "forge_instance_version"');
  }
}
