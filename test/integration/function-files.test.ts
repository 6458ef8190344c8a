/**
 * Every function of ours in a migrated database has its current text in one SQL file beside the
 * feature that owns it (src/database/trigger-functions.ts), and the database holds exactly that
 * text: a migration that changes a function without its file (or the other way round) fails here.
 */
import { MIGRATIONS } from '../../src/database/migrations';
import {
  applyFunctionFiles,
  FUNCTION_FILES,
  functionFileFrom,
  functionFileText,
  type FunctionName,
} from '../../src/database/trigger-functions';
import { openMigrationTarget, type MigrationTarget } from '../support/migration-target';

/** Extensions' functions (pgcrypto, pg_trgm) are theirs, not ours. */
/** What a trigger is, short of its WHEN clause's text (PostgreSQL prints a reparsed clause differently: an IN list comes back as ANY of a cast array). */
const TRIGGER_SHAPES = `SELECT t.tgname AS name, t.tgrelid::regclass::text AS "table", t.tgfoid::regproc::text AS function, t.tgtype AS type,
    t.tgdeferrable AS deferrable, t.tginitdeferred AS deferred, t.tgqual IS NOT NULL AS "when"
  FROM pg_trigger t WHERE NOT t.tgisinternal ORDER BY t.tgname`;

const OUR_FUNCTIONS = `SELECT p.proname AS name, pg_get_functiondef(p.oid) AS definition,
    coalesce((SELECT array_agg(pg_get_triggerdef(t.oid) ORDER BY t.tgname) FROM pg_trigger t WHERE t.tgfoid = p.oid AND NOT t.tgisinternal), '{}') AS triggers
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
  WHERE n.nspname = 'public' AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')
  ORDER BY p.proname`;

describe('database functions and their files', () => {
  let database: MigrationTarget;
  let functions: { name: string; definition: string; triggers: string[] }[];
  let reapplied: typeof functions;
  let shapes: unknown[];
  let reappliedShapes: unknown[];

  beforeAll(async () => {
    database = await openMigrationTarget();
    const migrated = await database.migrated(MIGRATIONS.length);
    try {
      functions = await migrated.query(OUR_FUNCTIONS);
      shapes = await migrated.query(TRIGGER_SHAPES);
      // What a migration that changes a function runs: every file applied again, in one transaction.
      const runner = migrated.createQueryRunner();
      try {
        await runner.startTransaction();
        await applyFunctionFiles(runner, Object.keys(FUNCTION_FILES) as FunctionName[]);
        await runner.commitTransaction();
      } finally {
        await runner.release();
      }
      reapplied = await migrated.query(OUR_FUNCTIONS);
      reappliedShapes = await migrated.query(TRIGGER_SHAPES);
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

  it('reads every file as one CREATE OR REPLACE FUNCTION of the function it is named after', () => {
    for (const name of Object.keys(FUNCTION_FILES) as FunctionName[]) {
      expect(functionFileText(name)).toMatch(new RegExp(`^CREATE OR REPLACE FUNCTION public\\.${name}\\(`));
    }
  });
});
