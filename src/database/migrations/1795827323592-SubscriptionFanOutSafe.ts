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
/** The details a public event's payload shows (src/news/subscriptions/event-payload.ts PUBLIC_FIELDS); the rest is not copied. */
const PUBLIC_DETAIL_KEYS = ['version', 'reason', 'repoUrl', 'message', 'replacement'];
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;
const list = (items: string[]) => items.map(literal).join(', ');
const cases = Object.entries(EVENT_OF_ACTION)
  .map(([action, type]) => `WHEN ${literal(action)} THEN ${literal(type)}`)
  .join(' ');

/**
 * The fan-out, safe for the catalogue write it rides on and cheap under the changes feed's lock:
 * - the matching subscriptions are found by indexed branches (UNION ALL) and locked FOR KEY SHARE,
 *   so a subscription or user deleted meanwhile is skipped instead of failing the FK check;
 * - any error is caught and logged as a WARNING: a subscription never fails a publish;
 * - the event is stored only when at least one delivery is queued, with only the details its
 *   payload shows (operational events keep theirs: their payload carries them).
 */
const FAN_OUT = `CREATE OR REPLACE FUNCTION subscription_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_type text;
  v_plugin uuid;
  v_kind text;
  v_subs uuid[];
  v_details jsonb;
BEGIN
  v_type := CASE NEW.action ${cases} ELSE NULL END;
  IF v_type IS NULL THEN RETURN NULL; END IF;
  BEGIN
    IF NEW.slug IS NOT NULL THEN
      SELECT p.id, p.kind INTO v_plugin, v_kind FROM plugin p WHERE p.slug = NEW.slug;
    END IF;
    IF v_type IN (${list(ADMIN_EVENTS)}) THEN
      v_subs := ARRAY(
        SELECT s.id FROM subscription s
        WHERE s.id IN (SELECT s2.id FROM user_account u JOIN subscription s2 ON s2.user_id = u.id
                       WHERE u.role = 'admin' AND u.disabled_at IS NULL)
          AND s.disabled_at IS NULL AND v_type = ANY (s.events)
        FOR KEY SHARE OF s);
      v_details := COALESCE(NEW.details, '{}'::jsonb);
    ELSE
      v_subs := ARRAY(
        SELECT s.id FROM subscription s JOIN user_account u ON u.id = s.user_id
        WHERE s.id IN (
            SELECT r.id FROM subscription r WHERE r.scope = 'registry' AND r.target IS NULL AND r.disabled_at IS NULL
            UNION ALL
            SELECT p.id FROM subscription p WHERE p.scope = 'plugin' AND p.target = NEW.slug AND p.disabled_at IS NULL
            UNION ALL
            SELECT k.id FROM subscription k WHERE k.scope = 'kind' AND k.target = v_kind AND k.disabled_at IS NULL
            UNION ALL
            SELECT o.id FROM plugin_owner po JOIN subscription o ON o.user_id = po.user_id AND o.scope = 'owned' WHERE po.plugin_id = v_plugin
            UNION ALL
            SELECT b.id FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(NEW.details -> 'before') = 'array' THEN NEW.details -> 'before' ELSE '[]'::jsonb END) e(user_id)
              JOIN subscription b ON b.user_id::text = e.user_id AND b.scope = 'owned')
          AND s.disabled_at IS NULL AND u.disabled_at IS NULL AND v_type = ANY (s.events)
          AND (s.scope <> 'registry' OR u.role = 'admin')
        FOR KEY SHARE OF s);
      v_details := COALESCE((SELECT jsonb_object_agg(d.key, d.value) FROM jsonb_each(COALESCE(NEW.details, '{}'::jsonb)) d
                             WHERE d.key IN (${list(PUBLIC_DETAIL_KEYS)})), '{}'::jsonb);
    END IF;
    IF cardinality(v_subs) = 0 THEN RETURN NULL; END IF;
    INSERT INTO subscription_event (id, type, action, slug, kind, details, created_at)
      VALUES (NEW.id, v_type, NEW.action, NEW.slug, v_kind, v_details, NEW.created_at)
      ON CONFLICT DO NOTHING;
    INSERT INTO subscription_delivery (subscription_id, event_id)
      SELECT DISTINCT unnest(v_subs), NEW.id
      ON CONFLICT DO NOTHING;
  EXCEPTION WHEN others THEN
    RAISE WARNING 'subscription_fan_out: audit entry % (%) queued no delivery: % (%)', NEW.id, NEW.action, SQLERRM, SQLSTATE;
  END;
  RETURN NULL;
END
$$`;

/** The previous function (1795822115151-Subscriptions), for down(). */
const PREVIOUS = `CREATE OR REPLACE FUNCTION subscription_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
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
      AND CASE WHEN v_type IN (${list(ADMIN_EVENTS)}) THEN u.role = 'admin'
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
$$`;

export class SubscriptionFanOutSafe1795827323592 implements MigrationInterface {
  name = 'SubscriptionFanOutSafe1795827323592';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE INDEX "idx_user_account_admin" ON "user_account"  ("id") WHERE "role" = \'admin\'');
    await queryRunner.query(
      'CREATE INDEX "idx_subscription_scope_target" ON "subscription"  ("scope", "target") WHERE "disabled_at" IS NULL',
    );
    await queryRunner.query(FAN_OUT);
    // Only the mapped actions queue the deferred call (sign-ins, tokens and the rest do not).
    await queryRunner.query('DROP TRIGGER subscription_fan_out ON "audit_entry"');
    await queryRunner.query(
      `CREATE CONSTRAINT TRIGGER subscription_fan_out AFTER INSERT ON "audit_entry" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.action IN (${list(Object.keys(EVENT_OF_ACTION))})) EXECUTE FUNCTION subscription_fan_out()`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER subscription_fan_out ON "audit_entry"');
    await queryRunner.query(
      'CREATE CONSTRAINT TRIGGER subscription_fan_out AFTER INSERT ON "audit_entry" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION subscription_fan_out()',
    );
    await queryRunner.query(PREVIOUS);
    await queryRunner.query('DROP INDEX "public"."idx_subscription_scope_target"');
    await queryRunner.query('DROP INDEX "public"."idx_user_account_admin"');
  }
}
