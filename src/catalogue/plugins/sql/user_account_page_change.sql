CREATE OR REPLACE FUNCTION public.user_account_page_change()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO plugin_page_change (plugin_id, txid) SELECT plugin_id, pg_current_xact_id()::text::bigint FROM plugin_owner WHERE user_id = NEW.id;
  RETURN NULL;
END
$function$;

CREATE TRIGGER user_account_page_update AFTER UPDATE ON public.user_account FOR EACH ROW WHEN ((((old.login)::text IS DISTINCT FROM (new.login)::text) OR ((old.instance)::text IS DISTINCT FROM (new.instance)::text))) EXECUTE FUNCTION user_account_page_change();
