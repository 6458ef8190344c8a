import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which web URL each added forge instance name stood for, kept after the instance is removed, so
 * a name accounts use cannot come back for another server. Seeded from the instances stored now.
 */
export class ForgeNameHistory1795814841798 implements MigrationInterface {
  name = 'ForgeNameHistory1795814841798';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "forge_name_history" ("name" character varying(40) NOT NULL, "web_url" character varying(2048) NOT NULL, "recorded_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_1cd5088074e32a82df47879261a" PRIMARY KEY ("name"))',
    );
    await queryRunner.query(
      'INSERT INTO "forge_name_history" ("name", "web_url", "recorded_at") SELECT "name", "web_url", "created_at" FROM "forge_instance"',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "forge_name_history"');
  }
}
