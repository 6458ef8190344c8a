CREATE OR REPLACE FUNCTION public.catalogue_event_plugin_deleted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM pg_advisory_xact_lock(7322641);
  INSERT INTO catalogue_event (txid, type, slug, created_at) VALUES (pg_current_xact_id()::text::bigint, 'plugin.deleted', OLD.slug, clock_timestamp());
  RETURN NULL;
END
$function$;

CREATE TRIGGER catalogue_event_plugin_delete AFTER DELETE ON public.plugin FOR EACH ROW EXECUTE FUNCTION catalogue_event_plugin_deleted();
