CREATE OR REPLACE FUNCTION public.subscription_park_on_disable()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF NEW.disabled_at IS NOT NULL THEN
    UPDATE subscription_delivery SET status = 'parked' WHERE subscription_id = NEW.id AND status = 'queued';
  ELSIF NOT EXISTS (SELECT 1 FROM user_account u WHERE u.id = NEW.user_id AND u.disabled_at IS NOT NULL) THEN
    UPDATE subscription_delivery SET status = 'queued' WHERE subscription_id = NEW.id AND status = 'parked';
  END IF;
  RETURN NULL;
END
$function$;

CREATE TRIGGER subscription_park_on_disable AFTER UPDATE OF disabled_at ON public.subscription FOR EACH ROW WHEN ((old.disabled_at IS DISTINCT FROM new.disabled_at)) EXECUTE FUNCTION subscription_park_on_disable();
