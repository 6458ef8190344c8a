import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A rotation no longer waits for an earlier drain: several keys may drain at once, each staying in
 * the key set until its releases are re-signed.
 */
export class SeveralDrainingKeys1795446120000 implements MigrationInterface {
  name = 'SeveralDrainingKeys1795446120000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."uq_signing_key_draining"');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // The old schema allows one draining key: older ones retire, and the old re-signing worker
    // still moves their releases (it re-signs whatever names a retired key).
    await queryRunner.query(
      `UPDATE "signing_key" SET "state" = 'retired', "retired_at" = now(), "private_key_ciphertext" = NULL, "private_key_iv" = NULL, "private_key_tag" = NULL
        WHERE "state" = 'draining' AND "kid" <> (SELECT "kid" FROM "signing_key" WHERE "state" = 'draining' ORDER BY "created_at" DESC LIMIT 1)`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_signing_key_draining" ON "signing_key" ("state") WHERE "state" = 'draining'`);
  }
}
