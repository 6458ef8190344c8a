import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The transparency log (docs/transparency-log.md): its leaves, every complete subtree's
 * hash, and each release's entry index.
 */
export class TransparencyLog1795834851567 implements MigrationInterface {
  name = 'TransparencyLog1795834851567';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "transparency_leaf" ("index" bigint NOT NULL, "entry" bytea NOT NULL, "leaf_hash" bytea NOT NULL, "release_id" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_3c1e1505b8011dae236a6ecc238" PRIMARY KEY ("index"))',
    );
    await queryRunner.query('CREATE INDEX "idx_transparency_leaf_release" ON "transparency_leaf"  ("release_id") ');
    await queryRunner.query(
      'CREATE TABLE "transparency_node" ("level" smallint NOT NULL, "index" bigint NOT NULL, "hash" bytea NOT NULL, CONSTRAINT "PK_30932451dfcbd5ca590406429e0" PRIMARY KEY ("level", "index"))',
    );
    await queryRunner.query('ALTER TABLE "release" ADD "log_index" bigint');
    await queryRunner.query(
      'ALTER TABLE "transparency_leaf" ADD CONSTRAINT "FK_4f683135a72bf15b41d543f9e89" FOREIGN KEY ("release_id") REFERENCES "release"("id") ON DELETE SET NULL ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "transparency_leaf" DROP CONSTRAINT "FK_4f683135a72bf15b41d543f9e89"');
    await queryRunner.query('ALTER TABLE "release" DROP COLUMN "log_index"');
    await queryRunner.query('DROP TABLE "transparency_node"');
    await queryRunner.query('DROP INDEX "public"."idx_transparency_leaf_release"');
    await queryRunner.query('DROP TABLE "transparency_leaf"');
  }
}
