CREATE OR REPLACE FUNCTION public.subscription_park_on_user_disable()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF NEW.disabled_at IS NOT NULL THEN
    UPDATE subscription_delivery d SET status = 'parked' FROM subscription s
    WHERE s.user_id = NEW.id AND d.subscription_id = s.id AND d.status = 'queued';
  ELSE
    UPDATE subscription_delivery d SET status = 'queued' FROM subscription s
    WHERE s.user_id = NEW.id AND s.disabled_at IS NULL AND d.subscription_id = s.id AND d.status = 'parked';
  END IF;
  RETURN NULL;
END
$function$;

CREATE TRIGGER subscription_park_on_user_disable AFTER UPDATE OF disabled_at ON public.user_account FOR EACH ROW WHEN ((old.disabled_at IS DISTINCT FROM new.disabled_at)) EXECUTE FUNCTION subscription_park_on_user_disable();
