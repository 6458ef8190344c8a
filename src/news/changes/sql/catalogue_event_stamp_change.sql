CREATE OR REPLACE FUNCTION public.catalogue_event_stamp_change()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  NEW.change := catalogue_event_change_json(NEW.seq, NEW.type, NEW.slug, NEW.version, NEW.data, NEW.created_at);
  RETURN NEW;
END
$function$;

CREATE TRIGGER catalogue_event_stamp_change BEFORE INSERT OR UPDATE ON public.catalogue_event FOR EACH ROW EXECUTE FUNCTION catalogue_event_stamp_change();
