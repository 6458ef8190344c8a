CREATE OR REPLACE FUNCTION public.catalogue_event_change_json(seq bigint, type text, slug text, version text, data jsonb, created_at timestamp with time zone)
 RETURNS text
 LANGUAGE sql
 STABLE
AS $function$
  SELECT row_to_json(r)::text FROM (SELECT seq::text AS cursor, type, slug, version, data,
    to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at) r
$function$;
