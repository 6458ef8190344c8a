CREATE OR REPLACE FUNCTION public.subscription_fan_out()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_type text;
  v_plugin uuid;
  v_kind text;
  v_subs uuid[];
  v_details jsonb;
BEGIN
  v_type := CASE NEW.action WHEN 'plugin.publish' THEN 'release.published' WHEN 'plugin.yank' THEN 'release.yanked' WHEN 'plugin.unyank' THEN 'release.unyanked' WHEN 'plugin.claim' THEN 'plugin.created' WHEN 'plugin.owners_change' THEN 'plugin.owners_changed' WHEN 'plugin.deprecate' THEN 'plugin.deprecated' WHEN 'plugin.undeprecate' THEN 'plugin.undeprecated' WHEN 'webhook.delivery_failed' THEN 'webhook.delivery_failed' WHEN 'plugin.publish_invalid' THEN 'ingest.failed' WHEN 'plugin.publish_asset_fail' THEN 'ingest.failed' WHEN 'plugin.manifest_asset_missing' THEN 'ingest.failed' WHEN 'key.rotate' THEN 'key.rotated' ELSE NULL END;
  IF v_type IS NULL THEN RETURN NULL; END IF;
  BEGIN
    IF NEW.slug IS NOT NULL THEN
      SELECT p.id, p.kind INTO v_plugin, v_kind FROM plugin p WHERE p.slug = NEW.slug;
    END IF;
    IF v_type IN ('webhook.delivery_failed', 'ingest.failed', 'key.rotated') THEN
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
                             WHERE d.key IN ('version', 'reason', 'repoUrl', 'message', 'replacement')), '{}'::jsonb);
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
$function$;

CREATE CONSTRAINT TRIGGER subscription_fan_out AFTER INSERT ON public.audit_entry DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (((new.action)::text = ANY ((ARRAY['plugin.publish'::character varying, 'plugin.yank'::character varying, 'plugin.unyank'::character varying, 'plugin.claim'::character varying, 'plugin.owners_change'::character varying, 'plugin.deprecate'::character varying, 'plugin.undeprecate'::character varying, 'webhook.delivery_failed'::character varying, 'plugin.publish_invalid'::character varying, 'plugin.publish_asset_fail'::character varying, 'plugin.manifest_asset_missing'::character varying, 'key.rotate'::character varying])::text[]))) EXECUTE FUNCTION subscription_fan_out();
