/**
 * The last resort (docs/operating.md#crashes-and-clients-that-go-away): errors thrown from a timer,
 * an event listener or a promise nobody awaited are logged as one line each and counted, and the
 * process goes on. Run in a child process, because the handlers are process-wide and Jest's own
 * would otherwise see the errors.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

const SCRIPT = `
const { EventEmitter } = require('node:events');
const pino = require('pino');
const { StrayErrors } = require('./dist/common/stray-errors');
const counted = [];
const stray = new StrayErrors(pino(), (source) => counted.push(source));
stray.catchProcessWide();
setTimeout(() => { throw new Error('from a timer'); }, 1);
const emitter = new EventEmitter();
emitter.on('finish', () => { throw new TypeError('from a listener'); });
setTimeout(() => emitter.emit('finish'), 5);
setTimeout(() => { Promise.reject(new Error('from a promise nobody awaited')); }, 10);
const guarded = stray.guard('response-hook', () => { throw new URIError('URI malformed'); }, 'req-42');
setTimeout(guarded, 15);
setTimeout(() => { process.stdout.write(JSON.stringify({ alive: true, counted }) + '\\n'); }, 200);
`;

describe('stray errors', () => {
  it('are logged with their source, counted, and the process keeps running', async () => {
    const { stdout, code } = await new Promise<{ stdout: string; code: number | null }>((resolve) => {
      execFile(process.execPath, ['-e', SCRIPT], { cwd: ROOT, timeout: 20_000 }, (error, out) => {
        resolve({ stdout: out.toString(), code: error ? (typeof error.code === 'number' ? error.code : null) : 0 });
      });
    });
    expect(code).toBe(0);
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const logged = lines.filter((line) => line.msg !== undefined);
    expect(logged.map((line) => [line.level, line.source, (line.err as { message: string }).message])).toEqual([
      [50, 'uncaught-exception', 'from a timer'],
      [50, 'uncaught-exception', 'from a listener'],
      [50, 'unhandled-rejection', 'from a promise nobody awaited'],
      [50, 'response-hook', 'URI malformed'],
    ]);
    expect(logged[3].requestId).toBe('req-42');
    expect(lines.at(-1)).toEqual({
      alive: true,
      counted: ['uncaught-exception', 'uncaught-exception', 'unhandled-rejection', 'response-hook'],
    });
  }, 30_000);
});
