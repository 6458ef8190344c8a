import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { QueryRunner } from 'typeorm';

/**
 * Every function of ours in the database (trigger functions, and the one the changes feed's
 * trigger calls), each with its current definition in one SQL file beside the feature that owns it,
 * `src/<wing>/<feature>/sql/<name>.sql`: the function as `pg_get_functiondef` gives it back, then
 * the triggers that run it as `pg_get_triggerdef` does (`functionFileFrom`). To change one,
 * edit its file and add a migration that calls `applyFunctionFiles` with its name and hash: a test holds a
 * migrated database's definitions to these files, so a file changed without a migration (or a
 * migration that replaces a function some other way) fails it. The migrations from before the
 * files keep the text they applied; the last of them left what the files say.
 */
export const FUNCTION_FILES = {
  bump_forge_instance_version: 'platform/forges',
  bump_settings_version: 'platform/settings',
  catalogue_change_log: 'catalogue/plugins',
  plugin_count_delete: 'catalogue/plugins',
  plugin_count_insert: 'catalogue/plugins',
  plugin_count_truncate: 'catalogue/plugins',
  plugin_search_vector: 'catalogue/plugins',
  plugin_page_change: 'catalogue/plugins',
  plugin_owner_page_change: 'catalogue/plugins',
  release_page_change: 'catalogue/plugins',
  release_readme_page_change: 'catalogue/plugins',
  user_account_page_change: 'catalogue/plugins',
  catalogue_event_change_json: 'news/changes',
  catalogue_event_from_audit: 'news/changes',
  catalogue_event_plugin_deleted: 'news/changes',
  catalogue_event_stamp_change: 'news/changes',
  subscription_fan_out: 'news/subscriptions',
  subscription_park_on_disable: 'news/subscriptions',
  subscription_park_on_user_disable: 'news/subscriptions',
} as const;

export type FunctionName = keyof typeof FUNCTION_FILES;

/** Our functions in a database (an extension's, pgcrypto's or pg_trgm's, are its own), each with the triggers that run it. */
export const DATABASE_FUNCTIONS_SQL = `SELECT p.proname AS name, pg_get_functiondef(p.oid) AS definition,
    coalesce((SELECT array_agg(pg_get_triggerdef(t.oid) ORDER BY t.tgname) FROM pg_trigger t WHERE t.tgfoid = p.oid AND NOT t.tgisinternal), '{}') AS triggers
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
  WHERE n.nspname = 'public' AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')
  ORDER BY p.proname`;

/** A function's file as it reads when it holds what the database holds. */
export function functionFileFrom(definition: string, triggers: readonly string[]): string {
  return `${definition.trim()};\n${triggers.length ? `\n${triggers.map((trigger) => `${trigger};`).join('\n')}\n` : ''}`;
}

/** A trigger line's name and table: `CREATE [CONSTRAINT] TRIGGER name ... ON table ...`. */
const TRIGGER_LINE = /^CREATE (?:CONSTRAINT )?TRIGGER (\S+) .*? ON (\S+) /;

/** The file's text: the `CREATE OR REPLACE FUNCTION`, then one `CREATE TRIGGER` line for each trigger that runs it. */
export function functionFileText(name: FunctionName): string {
  return readFileSync(join(__dirname, '..', FUNCTION_FILES[name], 'sql', `${name}.sql`), 'utf8');
}

const sha256Of = (text: string) => createHash('sha256').update(text).digest('hex');

/** The SHA-256 of a function's file as it is now: what a migration that applies it names. */
export function functionFileHash(name: FunctionName): string {
  return sha256Of(functionFileText(name));
}

/** A file's statements: the function's, then each trigger's with its name and table. */
export function functionFileStatements(
  name: FunctionName,
  text: string,
): { fn: string; triggers: { name: string; table: string; sql: string }[] } {
  const end = text.indexOf('$function$;', text.indexOf('$function$') + 1);
  if (end < 0) throw new Error(`${name}.sql: no function body`);
  const lines = text
    .slice(end + '$function$;'.length)
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const triggers = lines.map((line) => {
    const trigger = TRIGGER_LINE.exec(line);
    if (!trigger) throw new Error(`${name}.sql: not a trigger: ${line.slice(0, 80)}`);
    return { name: trigger[1], table: trigger[2], sql: line.replace(/;$/, '') };
  });
  return { fn: text.slice(0, end + '$function$'.length), triggers };
}

/**
 * Applies functions' files, each named with the SHA-256 of its text when the migration was written
 * (`functionFileHash`, or `node scripts/function-files.js --hashes`): each function replaced, each of
 * its triggers dropped and created again (a constraint trigger has no OR REPLACE). A file whose text
 * has changed since is left alone: a later migration applies it as it is now, and running today's
 * text at an earlier step could name a column that does not exist yet (a trigger's WHEN is checked
 * at creation). Bodies are not checked at creation either way, as pg_dump restores them.
 */
export async function applyFunctionFiles(queryRunner: QueryRunner, files: Partial<Record<FunctionName, string>>): Promise<void> {
  await queryRunner.query(`SELECT set_config('check_function_bodies', 'off', true)`);
  for (const [name, sha256] of Object.entries(files) as [FunctionName, string][]) {
    const text = functionFileText(name);
    if (sha256Of(text) !== sha256) continue;
    const { fn, triggers } = functionFileStatements(name, text);
    await queryRunner.query(fn);
    for (const trigger of triggers) {
      await queryRunner.query(`DROP TRIGGER IF EXISTS ${trigger.name} ON ${trigger.table}`);
      await queryRunner.query(trigger.sql);
    }
  }
  await queryRunner.query(`SELECT set_config('check_function_bodies', 'on', true)`);
}
