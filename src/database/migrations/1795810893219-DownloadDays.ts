import type { MigrationInterface, QueryRunner } from 'typeorm';

export class DownloadDays1795810893219 implements MigrationInterface {
  name = 'DownloadDays1795810893219';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "plugin_download_day" ("plugin_id" uuid NOT NULL, "day" date NOT NULL, "downloads" bigint NOT NULL DEFAULT \'0\', CONSTRAINT "PK_25ae1e00fbbcc0a6b69c0ca7efe" PRIMARY KEY ("plugin_id", "day"))',
    );
    await queryRunner.query('CREATE INDEX "idx_plugin_download_day_day" ON "plugin_download_day"  ("day") ');
    await queryRunner.query(
      'CREATE TABLE "release_download_day" ("release_id" uuid NOT NULL, "day" date NOT NULL, "downloads" bigint NOT NULL DEFAULT \'0\', CONSTRAINT "PK_ad1b7282f625048ddd7d8fe98cc" PRIMARY KEY ("release_id", "day"))',
    );
    await queryRunner.query('CREATE INDEX "idx_release_download_day_day" ON "release_download_day"  ("day") ');
    await queryRunner.query(
      'ALTER TABLE "plugin_download_day" ADD CONSTRAINT "FK_fc7a130c1f1dd301b3c6af10570" FOREIGN KEY ("plugin_id") REFERENCES "plugin"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "release_download_day" ADD CONSTRAINT "FK_56df3a617c4bcdd3805d4e236b3" FOREIGN KEY ("release_id") REFERENCES "release"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "release_download_day" DROP CONSTRAINT "FK_56df3a617c4bcdd3805d4e236b3"');
    await queryRunner.query('ALTER TABLE "plugin_download_day" DROP CONSTRAINT "FK_fc7a130c1f1dd301b3c6af10570"');
    await queryRunner.query('DROP INDEX "public"."idx_release_download_day_day"');
    await queryRunner.query('DROP TABLE "release_download_day"');
    await queryRunner.query('DROP INDEX "public"."idx_plugin_download_day_day"');
    await queryRunner.query('DROP TABLE "plugin_download_day"');
  }
}
