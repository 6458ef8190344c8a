CREATE OR REPLACE FUNCTION public.plugin_search_vector()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  NEW.search_vector := setweight(to_tsvector('simple', NEW.name), 'A')
    || setweight(to_tsvector('simple', coalesce(NEW.description, '')), 'B')
    || setweight(to_tsvector('simple', NEW.tags::text), 'B')
    || setweight(to_tsvector('simple', coalesce(NEW.category, '') || ' ' || coalesce(NEW.kind, '')), 'C')
    || setweight(to_tsvector('simple', NEW.search_readme), 'D');
  RETURN NEW;
END
$function$;

CREATE TRIGGER plugin_search_vector BEFORE INSERT OR UPDATE OF name, description, tags, category, kind, search_readme ON public.plugin FOR EACH ROW EXECUTE FUNCTION plugin_search_vector();
