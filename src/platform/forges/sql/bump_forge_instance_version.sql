CREATE OR REPLACE FUNCTION public.bump_forge_instance_version()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      BEGIN
        UPDATE "forge_instance_version" SET "version" = "version" + 1 WHERE "id" = 1;
        RETURN NULL;
      END
    $function$;

CREATE TRIGGER forge_instance_bumps_version AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON public.forge_instance FOR EACH STATEMENT EXECUTE FUNCTION bump_forge_instance_version();
