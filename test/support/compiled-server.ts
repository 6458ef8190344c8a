import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
/** The `registry` program; `npm test` builds dist/ first when it is stale. */
export const REGISTRY_BIN = join(ROOT, 'bin', 'registry.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `registry <args>` to completion with exactly the given environment (plus PATH). */
export function registryCli(args: string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [REGISTRY_BIN, ...args],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout: stdout.toString(), stderr: stderr.toString() });
      },
    );
  });
}

export interface CompiledServer {
  child: ChildProcess;
  /** Everything the process wrote so far (stdout and stderr), for failure messages. */
  output(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

/** Starts `registry serve [args]` as a child process; see `listening` to wait for its URL. */
export function spawnServe(env: Record<string, string>, args: string[] = []): CompiledServer {
  const child = spawn(process.execPath, [REGISTRY_BIN, 'serve', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/**
 * The server's URL, from its "registry <version> listening on ..." log line (it needs LOG_LEVEL=info or lower
 * and PORT=0 picks a free port). Rejects when the process exits first or takes too long.
 */
export async function listening(server: CompiledServer, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let exitCode: number | null | undefined;
  void server.exited.then((code) => (exitCode = code));
  while (Date.now() < deadline) {
    for (const line of server.output().split('\n')) {
      if (!line.startsWith('{')) continue;
      const entry = JSON.parse(line) as { msg?: string; port?: number };
      if (entry.msg?.startsWith('registry ') && entry.msg.includes(' listening on ') && entry.port) return `http://127.0.0.1:${entry.port}`;
    }
    if (exitCode !== undefined) throw new Error(`the server exited (${exitCode}) before listening:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server did not listen within ${timeoutMs} ms:\n${server.output()}`);
}

/** SIGTERM, then SIGKILL if it has not exited within `graceMs`; resolves with the exit code. */
export async function stopServe(server: CompiledServer, graceMs = 15_000): Promise<number | null> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return server.exited;
  server.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const killed = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      server.child.kill('SIGKILL');
      resolve();
    }, graceMs);
  });
  await Promise.race([server.exited, killed]);
  clearTimeout(timer);
  return server.exited;
}

/** GET that never hangs: a request the server does not answer in time reports status 0. */
export async function statusOf(url: string, timeoutMs = 5_000): Promise<number> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}
