CREATE OR REPLACE FUNCTION public.bump_settings_version()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      BEGIN
        UPDATE "settings_version" SET "version" = "version" + 1 WHERE "id" = 1;
        RETURN NULL;
      END
    $function$;

CREATE TRIGGER app_setting_bumps_version AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON public.app_setting FOR EACH STATEMENT EXECUTE FUNCTION bump_settings_version();
CREATE TRIGGER kind_bumps_settings_version AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON public.kind FOR EACH STATEMENT EXECUTE FUNCTION bump_settings_version();
