/** A throwaway redis-server on a free loopback port, for tests that kill and restart Redis. */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { freePort } from './free-port';

/** Why a scratch Redis cannot run here, or null when it can. */
export function scratchRedisUnavailable(): string | null {
  return spawnSync('redis-server', ['--version']).status === 0 ? null : 'no redis-server on PATH';
}

export class ScratchRedis {
  private process: ChildProcess | null = null;

  private constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}

  static async start(): Promise<ScratchRedis> {
    const redis = new ScratchRedis(await freePort(), mkdtempSync(join(tmpdir(), 'scratch-redis-')));
    try {
      await redis.start();
      return redis;
    } catch (error) {
      await redis.remove();
      throw error;
    }
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts (again, on the same port) and waits until it answers PING. */
  async start(): Promise<void> {
    this.process = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', this.dir],
      { stdio: 'ignore' },
    );
    const until = Date.now() + 30_000;
    while (!(await this.answers())) {
      if (Date.now() > until) throw new Error(`redis-server on port ${this.port} did not answer within 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** SIGKILL: the connection drops with no goodbye, as when the host dies. */
  async kill(): Promise<void> {
    const child = this.process;
    this.process = null;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  /** Keys under `pattern`, on a short-lived connection. */
  async keys(pattern: string): Promise<string[]> {
    const client = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
    try {
      await client.connect();
      return await client.keys(pattern);
    } finally {
      client.disconnect();
    }
  }

  async remove(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async answers(): Promise<boolean> {
    const client = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return (await client.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      client.disconnect();
    }
  }
}
