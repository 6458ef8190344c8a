import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each stored README keeps its markdown, its link context and the renderer version that produced
 * it, so a renderer or sanitizer change re-renders it. Rows stored before have version 0 and no
 * markdown: the server passes their HTML through the current sanitizer instead.
 */
export class ReadmeRenderVersion1795615024073 implements MigrationInterface {
  name = 'ReadmeRenderVersion1795615024073';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "release_readme" ADD "markdown" text');
    await queryRunner.query('ALTER TABLE "release_readme" ADD "render_context" jsonb');
    await queryRunner.query('ALTER TABLE "release_readme" ADD "render_version" integer NOT NULL DEFAULT \'0\'');
    await queryRunner.query('CREATE INDEX "idx_release_readme_render_version" ON "release_readme"  ("render_version") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."idx_release_readme_render_version"');
    await queryRunner.query('ALTER TABLE "release_readme" DROP COLUMN "render_version"');
    await queryRunner.query('ALTER TABLE "release_readme" DROP COLUMN "render_context"');
    await queryRunner.query('ALTER TABLE "release_readme" DROP COLUMN "markdown"');
  }
}
