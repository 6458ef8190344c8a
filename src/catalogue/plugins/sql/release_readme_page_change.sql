CREATE OR REPLACE FUNCTION public.release_readme_page_change()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO plugin_page_change (plugin_id, txid) SELECT plugin, pg_current_xact_id()::text::bigint FROM (SELECT DISTINCT r.plugin_id FROM release r WHERE r.id IN (SELECT release_id FROM changed)) AS written(plugin);
  RETURN NULL;
END
$function$;

CREATE TRIGGER release_readme_page_delete AFTER DELETE ON public.release_readme REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION release_readme_page_change();
CREATE TRIGGER release_readme_page_insert AFTER INSERT ON public.release_readme REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION release_readme_page_change();
CREATE TRIGGER release_readme_page_update AFTER UPDATE ON public.release_readme REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION release_readme_page_change();
