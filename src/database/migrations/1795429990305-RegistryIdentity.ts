import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The registry database's own name, for keeping shared caches of different registries apart. */
export class RegistryIdentity1795429990305 implements MigrationInterface {
  name = 'RegistryIdentity1795429990305';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "registry_identity" ("id" smallint NOT NULL, "namespace" uuid NOT NULL DEFAULT gen_random_uuid(), CONSTRAINT "ck_registry_identity_single_row" CHECK ("id" = 1), CONSTRAINT "PK_4f5fe90546ec56113b99c44fe12" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('INSERT INTO "registry_identity" ("id") VALUES (1)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "registry_identity"');
  }
}
