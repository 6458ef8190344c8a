import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CACHE, readCache } from './cache';
import type { AppConfig } from './config.types';
import { DATABASE, readDatabase } from './database';
import { FORGES_AREA, readForges } from './forges';
import { FRESHNESS, readFreshness } from './freshness';
import { INGEST, readIngest } from './ingest';
import { LOGGING, readLogging } from './logging';
import { MIRROR, readMirror } from './mirror';
import { PASSWORDS, readPasswords } from './passwords';
import { PROVENANCE, readProvenance } from './provenance';
import { readSecrets, SECRETS, withGeneratedSecrets } from './secrets';
import { readServer, SERVER } from './server';
import { type ConfigArea, type Environment, EnvironmentReader } from './variable';
import { readWebhooks, WEBHOOKS } from './webhooks';

export { parseTrustProxy } from './server';
export type { Environment } from './variable';

/** Every variable the service reads, by area: what docs/configuration.md is generated from. */
export const CONFIG_AREAS: readonly ConfigArea[] = [
  SERVER,
  LOGGING,
  DATABASE,
  CACHE,
  SECRETS,
  FORGES_AREA,
  INGEST,
  PROVENANCE,
  WEBHOOKS,
  MIRROR,
  FRESHNESS,
  PASSWORDS,
];

/** The name of every variable the service reads; `.env.example` lists the same. */
export const CONFIG_VARIABLES: readonly string[] = CONFIG_AREAS.flatMap((area) => area.variables.map((variable) => variable.name));

export interface LoadConfigOptions {
  /** Generate missing development secrets under DATA_DIR (the server and operator CLI do; unit tests need not). */
  persistSecrets?: boolean;
}

/** Reads the environment once into a frozen, typed object; lists every bad variable in one error. */
export function loadConfig(env: Environment, options: LoadConfigOptions = {}): AppConfig {
  const reader = new EnvironmentReader(env);
  const server = readServer(reader);
  const logging = readLogging(reader, server.nodeEnv);
  const database = readDatabase(reader);
  const cache = readCache(reader, database.databaseUrl);
  const secrets = readSecrets(reader, server.isProduction);
  const forges = readForges(reader, server.baseUrl);
  const ingest = readIngest(reader);
  const provenance = readProvenance(reader);
  const webhooks = readWebhooks(reader);
  const mirror = readMirror(reader);
  const freshness = readFreshness(reader);
  const passwords = readPasswords(reader);
  reader.check();
  // Only a good configuration may write generated secrets into DATA_DIR.
  const allSecrets = withGeneratedSecrets(secrets, database.dataDir, options.persistSecrets === true);
  return Object.freeze({
    ...server,
    ...logging,
    ...database,
    ...cache,
    ...allSecrets,
    ...forges,
    ...ingest,
    ...provenance,
    ...webhooks,
    ...mirror,
    ...freshness,
    ...passwords,
  });
}

/** Reads `.env` (when present) beneath the real environment, which wins. */
export function environmentWithDotenv(env: Environment, cwd: string): Environment {
  const path = join(cwd, '.env');
  if (!existsSync(path)) return env;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { parse } = require('dotenv') as typeof import('dotenv');
  return { ...parse(readFileSync(path)), ...env };
}
