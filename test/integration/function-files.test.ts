/**
 * Every function of ours in a migrated database has its current text in one SQL file beside the
 * feature that owns it (src/database/trigger-functions.ts), and the database holds exactly that
 * text: a migration that changes a function without its file (or the other way round) fails here.
 */
import { MIGRATIONS } from '../../src/database/migrations';
import {
  applyFunctionFiles,
  DATABASE_FUNCTIONS_SQL,
  FUNCTION_FILES,
  functionFileFrom,
  functionFileHash,
  functionFileStatements,
  functionFileText,
  type FunctionName,
} from '../../src/database/trigger-functions';
import { openMigrationTarget, type MigrationTarget } from '../support/migration-target';

/** What a trigger is, short of its WHEN clause's text (PostgreSQL prints a reparsed clause differently: an IN list comes back as ANY of a cast array). */
const TRIGGER_SHAPES = `SELECT t.tgname AS name, t.tgrelid::regclass::text AS "table", t.tgfoid::regproc::text AS function, t.tgtype AS type,
    t.tgdeferrable AS deferrable, t.tginitdeferred AS deferred, t.tgqual IS NOT NULL AS "when"
  FROM pg_trigger t WHERE NOT t.tgisinternal ORDER BY t.tgname`;

describe('database functions and their files', () => {
  let database: MigrationTarget;
  let functions: { name: string; definition: string; triggers: string[] }[];
  let reapplied: typeof functions;
  let shapes: unknown[];
  let reappliedShapes: unknown[];
  /** bump_settings_version changed by hand, then applied with a hash of another text, then with its file's own. */
  let byHand: { changed: string; afterStale: string; afterCurrent: string };

  beforeAll(async () => {
    database = await openMigrationTarget();
    const migrated = await database.migrated(MIGRATIONS.length);
    try {
      functions = await migrated.query(DATABASE_FUNCTIONS_SQL);
      shapes = await migrated.query(TRIGGER_SHAPES);
      // What a migration that changes a function runs: every file applied again, in one transaction.
      const names = Object.keys(FUNCTION_FILES) as FunctionName[];
      const runner = migrated.createQueryRunner();
      try {
        await runner.startTransaction();
        await applyFunctionFiles(runner, Object.fromEntries(names.map((name) => [name, functionFileHash(name)])));
        await runner.commitTransaction();
      } finally {
        await runner.release();
      }
      reapplied = await migrated.query(DATABASE_FUNCTIONS_SQL);
      reappliedShapes = await migrated.query(TRIGGER_SHAPES);
      const body = async () =>
        ((await migrated.query(`SELECT pg_get_functiondef('bump_settings_version'::regproc) AS d`)) as { d: string }[])[0].d;
      const { fn } = functionFileStatements('bump_settings_version', functionFileText('bump_settings_version'));
      await migrated.query(fn.replace('RETURN NULL;', 'RETURN NULL; -- by hand'));
      const changed = await body();
      const apply = async (sha256: string) => {
        const r = migrated.createQueryRunner();
        try {
          await applyFunctionFiles(r, { bump_settings_version: sha256 });
        } finally {
          await r.release();
        }
      };
      await apply('0'.repeat(64));
      const afterStale = await body();
      await apply(functionFileHash('bump_settings_version'));
      byHand = { changed, afterStale, afterCurrent: await body() };
    } finally {
      await migrated.destroy();
    }
  });
  afterAll(() => database?.drop());

  it('has a file for every function of ours, and a function for every file', () => {
    expect(functions.map((f) => f.name).sort()).toEqual(Object.keys(FUNCTION_FILES).sort());
  });

  it('holds each function, and the triggers that run it, exactly as its file says', () => {
    for (const { name, definition, triggers } of functions) {
      expect({ name, text: functionFileFrom(definition, triggers) }).toEqual({ name, text: functionFileText(name as FunctionName) });
    }
  });

  it('applies the files as a migration does, leaving each function and trigger as it was', () => {
    expect(reapplied.map(({ name, definition }) => ({ name, definition }))).toEqual(
      functions.map(({ name, definition }) => ({ name, definition })),
    );
    expect(reappliedShapes).toEqual(shapes);
    expect(reapplied.map((f) => f.triggers.length)).toEqual(functions.map((f) => f.triggers.length));
  });

  it('leaves a file whose text changed since the migration named its hash (a later migration applies it)', () => {
    expect(byHand.changed).toContain('-- by hand');
    expect(byHand.afterStale).toBe(byHand.changed);
    expect(byHand.afterCurrent).not.toContain('-- by hand');
  });

  it('reads every file as one CREATE OR REPLACE FUNCTION of the function it is named after', () => {
    for (const name of Object.keys(FUNCTION_FILES) as FunctionName[]) {
      expect(functionFileText(name)).toMatch(new RegExp(`^CREATE OR REPLACE FUNCTION public\\.${name}\\(`));
    }
  });
});
