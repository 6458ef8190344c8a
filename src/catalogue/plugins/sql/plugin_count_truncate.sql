CREATE OR REPLACE FUNCTION public.plugin_count_truncate()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  UPDATE plugin_count SET plugins = 0 WHERE id = 1;
  RETURN NULL;
END
$function$;

CREATE TRIGGER plugin_count_truncate AFTER TRUNCATE ON public.plugin FOR EACH STATEMENT EXECUTE FUNCTION plugin_count_truncate();
