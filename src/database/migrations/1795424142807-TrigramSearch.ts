import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Trigram matching for the catalogue search's typo tolerance (a trusted extension since PostgreSQL 13). */
export class TrigramSearch1795424142807 implements MigrationInterface {
  name = 'TrigramSearch1795424142807';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP EXTENSION IF EXISTS pg_trgm');
  }
}
