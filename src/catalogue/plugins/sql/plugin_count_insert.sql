CREATE OR REPLACE FUNCTION public.plugin_count_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE plugin_count SET plugins = plugins + (SELECT count(*) FROM added) WHERE id = 1;
  RETURN NULL;
END
$function$;

CREATE TRIGGER plugin_count_insert AFTER INSERT ON public.plugin REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION plugin_count_insert();
