import type { MigrationInterface, QueryRunner } from 'typeorm';

export class OAuthState1795417969395 implements MigrationInterface {
  name = 'OAuthState1795417969395';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "oauth_state" ("state_sha256" bytea NOT NULL, "instance" character varying(40) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_a9ceda9a8e23424fc1df038600f" PRIMARY KEY ("state_sha256"))',
    );
    await queryRunner.query('CREATE INDEX "idx_oauth_state_expires" ON "oauth_state"  ("expires_at") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."idx_oauth_state_expires"');
    await queryRunner.query('DROP TABLE "oauth_state"');
  }
}
