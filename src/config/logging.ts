import type { AppConfig, LogFormat, LogLevel } from './config.types';
import { oneOf } from './parsers';
import type { ConfigArea, EnvironmentReader } from './variable';

const LOG_LEVEL = {
  name: 'LOG_LEVEL',
  parser: oneOf<LogLevel>(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
  unset: '`info`; `silent` when `NODE_ENV=test`',
  description: 'Least severe log line written.',
};
const LOG_FORMAT = {
  name: 'LOG_FORMAT',
  parser: oneOf<LogFormat>(['auto', 'json', 'pretty']),
  unset: '`auto`; `json` in production',
  // Picked at start, so a redirected log is machine-readable without being told.
  description: '`auto`: readable lines on a terminal, JSON lines otherwise (files, collectors).',
};

export const LOGGING: ConfigArea = { title: 'Logging', variables: [LOG_LEVEL, LOG_FORMAT] };

export function readLogging(reader: EnvironmentReader, nodeEnv: AppConfig['nodeEnv']): Pick<AppConfig, 'logLevel' | 'logFormat'> {
  return {
    logLevel: reader.read(LOG_LEVEL) ?? (nodeEnv === 'test' ? 'silent' : 'info'),
    logFormat: reader.read(LOG_FORMAT) ?? (nodeEnv === 'production' ? 'json' : 'auto'),
  };
}
