CREATE OR REPLACE FUNCTION public.catalogue_event_from_audit()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  event_type text;
  event_data jsonb := '{}'::jsonb;
  event_version text := NEW.details->>'version';
BEGIN
  CASE NEW.action
    WHEN 'plugin.publish' THEN event_type := 'release.published'; event_data := jsonb_build_object('kid', NEW.details->'kid');
    WHEN 'plugin.yank' THEN event_type := 'release.yanked'; event_data := jsonb_build_object('reason', NEW.details->'reason');
    WHEN 'plugin.unyank' THEN event_type := 'release.unyanked';
    WHEN 'release.delete' THEN event_type := 'release.deleted';
    WHEN 'plugin.manifest_refresh' THEN event_type := 'plugin.updated'; event_version := NULL;
    WHEN 'plugin.verify' THEN event_type := 'plugin.verified'; event_version := NULL;
    WHEN 'plugin.unverify' THEN event_type := 'plugin.unverified'; event_version := NULL;
    WHEN 'plugin.feature' THEN event_type := 'plugin.featured'; event_version := NULL;
    WHEN 'plugin.unfeature' THEN event_type := 'plugin.unfeatured'; event_version := NULL;
    WHEN 'plugin.deprecate' THEN event_type := 'plugin.deprecated'; event_version := NULL;
      event_data := jsonb_build_object('message', NEW.details->'message', 'replacement', NEW.details->'replacement');
    WHEN 'plugin.undeprecate' THEN event_type := 'plugin.undeprecated'; event_version := NULL;
    WHEN 'plugin.owners_change' THEN event_type := 'plugin.owners_changed'; event_version := NULL;
    WHEN 'key.rotate' THEN event_type := 'keys.changed'; event_version := NULL; event_data := jsonb_build_object('reason', 'rotate');
    WHEN 'key.resign' THEN event_type := 'keys.changed'; event_version := NULL;
      event_data := jsonb_build_object('reason', 'resign', 'kid', NEW.details->'kid', 'resignedWith', NEW.details->'resignedWith');
    ELSE RETURN NULL;
  END CASE;
  PERFORM pg_advisory_xact_lock(7322641);
  INSERT INTO catalogue_event (txid, type, slug, version, data, created_at)
    VALUES (pg_current_xact_id()::text::bigint, event_type, NEW.slug, event_version, event_data, clock_timestamp());
  RETURN NULL;
END
$function$;

CREATE TRIGGER catalogue_event_audit AFTER INSERT ON public.audit_entry FOR EACH ROW WHEN (((new.action)::text = ANY ((ARRAY['plugin.publish'::character varying, 'plugin.yank'::character varying, 'plugin.unyank'::character varying, 'release.delete'::character varying, 'plugin.manifest_refresh'::character varying, 'plugin.verify'::character varying, 'plugin.unverify'::character varying, 'plugin.feature'::character varying, 'plugin.unfeature'::character varying, 'plugin.deprecate'::character varying, 'plugin.undeprecate'::character varying, 'plugin.owners_change'::character varying, 'key.rotate'::character varying, 'key.resign'::character varying])::text[]))) EXECUTE FUNCTION catalogue_event_from_audit();
