import type { DestinationStream } from 'pino';

const LEVEL_NAMES: Readonly<Record<number, string>> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const OMITTED = new Set(['level', 'time', 'msg', 'context', 'reqId', 'req', 'res', 'responseTime', 'err']);

function levelName(level: unknown): string {
  if (typeof level === 'string') return level.toUpperCase();
  return typeof level === 'number' ? (LEVEL_NAMES[level] ?? String(level)) : '?';
}

function clock(time: unknown): string {
  const date = typeof time === 'number' ? new Date(time) : new Date();
  return date.toISOString().slice(11, 23);
}

function value(v: unknown): string {
  return typeof v === 'string' && !/\s/.test(v) ? v : JSON.stringify(v);
}

/**
 * One JSON log line as a person reads it: `12:00:01.123 INFO  [Context] message key=value (req id)`.
 * An access line reads `GET /path 200 5120B 12ms`; an error keeps its stack on the lines below.
 */
export function prettyLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const req = entry.req as { method?: string; url?: string } | undefined;
  const res = entry.res as { statusCode?: number; length?: number } | undefined;
  const parts = [clock(entry.time), levelName(entry.level).padEnd(5)];
  if (typeof entry.context === 'string') parts.push(`[${entry.context}]`);
  if (req?.method)
    parts.push(
      `${req.method} ${req.url ?? ''} ${res?.statusCode ?? ''}${typeof res?.length === 'number' ? ` ${res.length}B` : ''} ${entry.responseTime ?? '?'}ms`,
    );
  else if (entry.msg !== undefined) parts.push(String(entry.msg));
  if (req?.method && entry.msg !== 'request completed') parts.push(`- ${String(entry.msg)}`);
  for (const [key, v] of Object.entries(entry)) if (!OMITTED.has(key)) parts.push(`${key}=${value(v)}`);
  if (typeof entry.reqId === 'string') parts.push(`(req ${entry.reqId})`);
  const err = entry.err as { stack?: string; message?: string } | undefined;
  const stack = err?.stack ? `\n${err.stack}` : err?.message ? `\n${err.message}` : '';
  return `${parts.join(' ')}${stack}\n`;
}

/** A pino destination that writes readable lines to `out` (a terminal). */
export function prettyDestination(out: { write(text: string): unknown }): DestinationStream {
  return { write: (line: string) => void out.write(prettyLine(line)) };
}
