CREATE OR REPLACE FUNCTION public.plugin_count_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE plugin_count SET plugins = plugins - (SELECT count(*) FROM removed) WHERE id = 1;
  RETURN NULL;
END
$function$;

CREATE TRIGGER plugin_count_delete AFTER DELETE ON public.plugin REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION plugin_count_delete();
