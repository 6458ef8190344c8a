import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Audit actions that raise a subscription event (src/news/subscriptions/event-types.ts says the same). */
const EVENT_OF_ACTION: Record<string, string> = {
  'plugin.publish': 'release.published',
  'plugin.yank': 'release.yanked',
  'plugin.unyank': 'release.unyanked',
  'plugin.claim': 'plugin.created',
  'plugin.owners_change': 'plugin.owners_changed',
  'plugin.deprecate': 'plugin.deprecated',
  'plugin.undeprecate': 'plugin.undeprecated',
  'webhook.delivery_failed': 'webhook.delivery_failed',
  'plugin.publish_invalid': 'ingest.failed',
  'plugin.publish_asset_fail': 'ingest.failed',
  'plugin.manifest_asset_missing': 'ingest.failed',
  'key.rotate': 'key.rotated',
};
const ADMIN_EVENTS = ['webhook.delivery_failed', 'ingest.failed', 'key.rotated'];
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

export class Subscriptions1795822115151 implements MigrationInterface {
  name = 'Subscriptions1795822115151';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "subscription_event" ("id" uuid NOT NULL, "type" character varying(64) NOT NULL, "action" character varying(64) NOT NULL, "slug" character varying(64), "kind" character varying(64), "details" jsonb NOT NULL DEFAULT \'{}\', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_878b79ef455c948db7f94615990" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "idx_subscription_event_created_at" ON "subscription_event"  ("created_at") ');
    await queryRunner.query(
      'CREATE TABLE "subscription" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "url" character varying(2048) NOT NULL, "description" character varying(100), "events" text array NOT NULL, "scope" character varying(16) NOT NULL, "target" character varying(64), "secret_sealed" bytea NOT NULL, "failing_since" TIMESTAMP WITH TIME ZONE, "disabled_at" TIMESTAMP WITH TIME ZONE, "disabled_reason" character varying(300), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_8c3e00ebd02103caa1174cd5d9d" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "idx_subscription_user" ON "subscription"  ("user_id") ');
    await queryRunner.query(
      'CREATE TABLE "subscription_delivery" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "subscription_id" uuid NOT NULL, "event_id" uuid NOT NULL, "status" character varying(16) NOT NULL DEFAULT \'queued\', "attempts" integer NOT NULL DEFAULT \'0\', "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "locked_until" TIMESTAMP WITH TIME ZONE, "response_status" integer, "detail" character varying(300), "last_attempt_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "uq_subscription_delivery_event" UNIQUE ("subscription_id", "event_id"), CONSTRAINT "PK_e8662dd5fb1c7d024f6c54d401b" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "idx_subscription_delivery_log" ON "subscription_delivery"  ("subscription_id", "created_at") ');
    await queryRunner.query('CREATE INDEX "idx_subscription_delivery_due" ON "subscription_delivery"  ("status", "next_attempt_at") ');
    await queryRunner.query(
      'ALTER TABLE "subscription" ADD CONSTRAINT "FK_940d49a105d50bbd616be540013" FOREIGN KEY ("user_id") REFERENCES "user_account"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "subscription_delivery" ADD CONSTRAINT "FK_eaa8dedac9d90eab7e1a5f49308" FOREIGN KEY ("subscription_id") REFERENCES "subscription"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "subscription_delivery" ADD CONSTRAINT "FK_e38cde447f18afb60bb7bccad6b" FOREIGN KEY ("event_id") REFERENCES "subscription_event"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    // Outbound webhooks' events: a deferred trigger on audit_entry, run when the audited
    // transaction commits (the plugin's kind and owners are then those the change left), records
    // the event and queues one delivery per matching subscription; the unique (subscription,
    // event) makes a second queueing a no-op.
    const cases = Object.entries(EVENT_OF_ACTION)
      .map(([action, type]) => `WHEN ${literal(action)} THEN ${literal(type)}`)
      .join(' ');
    await queryRunner.query(`CREATE FUNCTION subscription_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_type text;
  v_plugin uuid;
  v_kind text;
BEGIN
  v_type := CASE NEW.action ${cases} ELSE NULL END;
  IF v_type IS NULL THEN RETURN NULL; END IF;
  IF NEW.slug IS NOT NULL THEN
    SELECT p.id, p.kind INTO v_plugin, v_kind FROM plugin p WHERE p.slug = NEW.slug;
  END IF;
  INSERT INTO subscription_event (id, type, action, slug, kind, details, created_at)
    VALUES (NEW.id, v_type, NEW.action, NEW.slug, v_kind, COALESCE(NEW.details, '{}'::jsonb), NEW.created_at)
    ON CONFLICT DO NOTHING;
  INSERT INTO subscription_delivery (subscription_id, event_id)
    SELECT s.id, NEW.id FROM subscription s JOIN user_account u ON u.id = s.user_id
    WHERE s.disabled_at IS NULL AND u.disabled_at IS NULL AND v_type = ANY (s.events)
      AND CASE WHEN v_type IN (${ADMIN_EVENTS.map(literal).join(', ')}) THEN u.role = 'admin'
        ELSE (s.scope = 'registry' AND u.role = 'admin')
          OR (s.scope = 'plugin' AND s.target = NEW.slug)
          OR (s.scope = 'kind' AND s.target = v_kind)
          OR (s.scope = 'owned' AND (
            EXISTS (SELECT 1 FROM plugin_owner o WHERE o.plugin_id = v_plugin AND o.user_id = s.user_id)
            OR (jsonb_typeof(NEW.details -> 'before') = 'array' AND (NEW.details -> 'before') ? s.user_id::text)))
        END
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$`);
    await queryRunner.query(
      'CREATE CONSTRAINT TRIGGER subscription_fan_out AFTER INSERT ON "audit_entry" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION subscription_fan_out()',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER subscription_fan_out ON "audit_entry"');
    await queryRunner.query('DROP FUNCTION subscription_fan_out()');
    await queryRunner.query('ALTER TABLE "subscription_delivery" DROP CONSTRAINT "FK_e38cde447f18afb60bb7bccad6b"');
    await queryRunner.query('ALTER TABLE "subscription_delivery" DROP CONSTRAINT "FK_eaa8dedac9d90eab7e1a5f49308"');
    await queryRunner.query('ALTER TABLE "subscription" DROP CONSTRAINT "FK_940d49a105d50bbd616be540013"');
    await queryRunner.query('DROP INDEX "public"."idx_subscription_delivery_due"');
    await queryRunner.query('DROP INDEX "public"."idx_subscription_delivery_log"');
    await queryRunner.query('DROP TABLE "subscription_delivery"');
    await queryRunner.query('DROP INDEX "public"."idx_subscription_user"');
    await queryRunner.query('DROP TABLE "subscription"');
    await queryRunner.query('DROP INDEX "public"."idx_subscription_event_created_at"');
    await queryRunner.query('DROP TABLE "subscription_event"');
  }
}
