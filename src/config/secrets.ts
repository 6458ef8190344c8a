import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDirectory, PRIVATE_FILE_MODE, tightenTree } from '../lib/files/private-directory';
import type { AppConfig } from './config.types';
import { hexBytes, text } from './parsers';
import type { ConfigArea, EnvironmentReader } from './variable';

const SESSION_SECRET = {
  name: 'SESSION_SECRET',
  // Taken exactly as given: trimming would quietly change the key.
  parser: text({ minLength: 32, trim: false }),
  unset: 'generated into `DATA_DIR` outside production; required in production',
  description: 'Signs session JWTs (HS256).',
};
const KEY_ENCRYPTION_KEY = {
  name: 'KEY_ENCRYPTION_KEY',
  parser: hexBytes(32),
  unset: 'generated into `DATA_DIR` outside production; required in production',
  description: 'Encrypts signing keys and stored provider tokens at rest.',
};
const INIT_TOKEN = {
  name: 'INIT_TOKEN',
  parser: text({ minLength: 16 }),
  unset: 'random, logged once',
  description: 'Fixed bootstrap token for the install wizard (never logged when set).',
};
const METRICS_TOKEN = {
  name: 'METRICS_TOKEN',
  parser: text({ minLength: 16 }),
  unset: '`/metrics` answers loopback callers only',
  description: 'Bearer token `GET /metrics` requires.',
};

export const SECRETS: ConfigArea = {
  title: 'Secrets and tokens',
  variables: [SESSION_SECRET, KEY_ENCRYPTION_KEY, INIT_TOKEN, METRICS_TOKEN],
};

type Secrets = Pick<AppConfig, 'sessionSecret' | 'keyEncryptionKey' | 'initToken' | 'metricsToken'>;

/** What the environment gives; `withGeneratedSecrets` fills in the rest once the whole configuration is good. */
export type SecretsRead = Omit<Secrets, 'sessionSecret' | 'keyEncryptionKey'> & { sessionSecret?: string; keyEncryptionKey?: Buffer };

export function readSecrets(reader: EnvironmentReader, isProduction: boolean): SecretsRead {
  const sessionSecret = reader.read(SESSION_SECRET);
  if (!reader.isSet(SESSION_SECRET) && isProduction) reader.bad(SESSION_SECRET, 'is required when NODE_ENV=production');
  const keyEncryptionKey = reader.read(KEY_ENCRYPTION_KEY);
  if (!reader.isSet(KEY_ENCRYPTION_KEY) && isProduction) reader.bad(KEY_ENCRYPTION_KEY, 'is required when NODE_ENV=production');
  return { sessionSecret, keyEncryptionKey, initToken: reader.read(INIT_TOKEN) ?? null, metricsToken: reader.read(METRICS_TOKEN) ?? null };
}

/**
 * Secrets that may be generated outside production are kept in DATA_DIR so restarts keep
 * sessions valid and encrypted keys readable.
 */
function persistedSecret(dataDir: string, fileName: string, make: () => string): string {
  const path = join(dataDir, fileName);
  // Owner-only, and tightened when an older version left them readable to others.
  ensurePrivateDirectory(dataDir);
  if (existsSync(path)) {
    tightenTree(path);
    return readFileSync(path, 'utf8').trim();
  }
  const value = make();
  writeFileSync(path, value + '\n', { mode: PRIVATE_FILE_MODE, flag: 'wx' });
  return value;
}

/** Generates what is missing: kept under `dataDir` when `persist` (the server, the operator CLI), else fresh each time. */
export function withGeneratedSecrets(read: SecretsRead, dataDir: string, persist: boolean): Secrets {
  const generated = (fileName: string) => {
    const make = () => randomBytes(32).toString('hex');
    return persist ? persistedSecret(dataDir, fileName, make) : make();
  };
  return {
    ...read,
    sessionSecret: read.sessionSecret ?? generated('session-secret'),
    keyEncryptionKey: read.keyEncryptionKey ?? Buffer.from(generated('key-encryption-key'), 'hex'),
  };
}
