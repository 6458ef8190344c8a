import type { AppConfig } from './config.types';
import { integer } from './parsers';
import type { ConfigArea, EnvironmentReader } from './variable';

const PASSWORD_HASH_CONCURRENCY = {
  name: 'PASSWORD_HASH_CONCURRENCY',
  parser: integer({ min: 1, max: 64 }),
  default: '4',
  description:
    "Password hashes (scrypt, 32 MiB and about 0.1 s of a core each) one instance computes at once: password sign-ins, password changes and password step-ups. Past it, the request is answered 503 with Retry-After at once, never queued, so a flood of password requests cannot slow everybody else's sign-in. The default matches libuv's 4 worker threads, which scrypt runs on (`UV_THREADPOOL_SIZE`).",
};

export const PASSWORDS: ConfigArea = { title: 'Passwords', variables: [PASSWORD_HASH_CONCURRENCY] };

export function readPasswords(reader: EnvironmentReader): Pick<AppConfig, 'passwordHashConcurrency'> {
  return { passwordHashConcurrency: reader.read(PASSWORD_HASH_CONCURRENCY) };
}
