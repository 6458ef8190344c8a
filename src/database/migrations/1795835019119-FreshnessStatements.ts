import type { MigrationInterface, QueryRunner } from 'typeorm';

export class FreshnessStatements1795835019119 implements MigrationInterface {
  name = 'FreshnessStatements1795835019119';

  async up(queryRunner: QueryRunner): Promise<void> {
    // UNLOGGED: a statement is a signature the registry can make again, so its writes skip the WAL
    // and their commits do not wait for a flush (that wait was most of an uncached `latest`
    // answer). A crash of the database server empties the table; every answer after it signs a
    // new statement, newer and over a log no smaller than any served before, so no client sees a
    // step back. Read on the primary only (a standby cannot read unlogged tables).
    await queryRunner.query(
      'CREATE UNLOGGED TABLE "freshness_statement" ("slug" character varying(214) NOT NULL, "platform" character varying(64) NOT NULL, "version" character varying(256) NOT NULL, "asset_sha256" character varying(64), "tree_size" bigint NOT NULL, "jws" text NOT NULL, "issued_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_2e9aa1396501c2f99a9ff921182" PRIMARY KEY ("slug", "platform"))',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "freshness_statement"');
  }
}
