CREATE OR REPLACE FUNCTION public.plugin_owner_page_change()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO plugin_page_change (plugin_id, txid) SELECT plugin, pg_current_xact_id()::text::bigint FROM (SELECT DISTINCT plugin_id FROM changed) AS written(plugin);
  RETURN NULL;
END
$function$;

CREATE TRIGGER plugin_owner_page_delete AFTER DELETE ON public.plugin_owner REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION plugin_owner_page_change();
CREATE TRIGGER plugin_owner_page_insert AFTER INSERT ON public.plugin_owner REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION plugin_owner_page_change();
CREATE TRIGGER plugin_owner_page_update AFTER UPDATE ON public.plugin_owner REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION plugin_owner_page_change();
