CREATE OR REPLACE FUNCTION public.catalogue_change_log()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO catalogue_change (plugin_id, txid) VALUES (COALESCE(NEW.id, OLD.id), pg_current_xact_id()::text::bigint);
  RETURN NULL;
END
$function$;

CREATE TRIGGER catalogue_change_insert_delete AFTER INSERT OR DELETE ON public.plugin FOR EACH ROW EXECUTE FUNCTION catalogue_change_log();
CREATE TRIGGER catalogue_change_update AFTER UPDATE ON public.plugin FOR EACH ROW WHEN ((((old.slug)::text IS DISTINCT FROM (new.slug)::text) OR ((old.name)::text IS DISTINCT FROM (new.name)::text) OR ((old.description)::text IS DISTINCT FROM (new.description)::text) OR ((old.category)::text IS DISTINCT FROM (new.category)::text) OR ((old.kind)::text IS DISTINCT FROM (new.kind)::text) OR (old.tags IS DISTINCT FROM new.tags) OR (old.extensions IS DISTINCT FROM new.extensions) OR (old.search_readme IS DISTINCT FROM new.search_readme) OR (old.featured IS DISTINCT FROM new.featured) OR (old.verified_at IS DISTINCT FROM new.verified_at) OR (old.latest_release_at IS DISTINCT FROM new.latest_release_at) OR (old.created_at IS DISTINCT FROM new.created_at) OR ((old.license)::text IS DISTINCT FROM (new.license)::text) OR ((old.icon)::text IS DISTINCT FROM (new.icon)::text) OR ((old.latest_version)::text IS DISTINCT FROM (new.latest_version)::text) OR ((old.latest_prerelease)::text IS DISTINCT FROM (new.latest_prerelease)::text) OR (old.updated_at IS DISTINCT FROM new.updated_at) OR ((old.repo_url)::text IS DISTINCT FROM (new.repo_url)::text) OR (old.downloads IS DISTINCT FROM new.downloads) OR ((old.icon_image)::text IS DISTINCT FROM (new.icon_image)::text) OR (old.deprecated_at IS DISTINCT FROM new.deprecated_at) OR ((old.deprecation_message)::text IS DISTINCT FROM (new.deprecation_message)::text) OR ((old.deprecated_replacement)::text IS DISTINCT FROM (new.deprecated_replacement)::text))) EXECUTE FUNCTION catalogue_change_log();
