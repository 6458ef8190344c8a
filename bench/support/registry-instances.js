'use strict';
// Compiled registry instances for the outage benchmark: `node dist/main.js` children on one
// database and one Redis, each with its output kept line by line (arrival time, text) so the
// benchmark can count what each instance logged in each fault window; and the operator CLI.
const { execFile, spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { freePort } = require('./free-port');

const ROOT = path.join(__dirname, '..', '..');
const MAIN = path.join(ROOT, 'dist', 'main.js');
const CLI = path.join(ROOT, 'bin', 'registry.js');

/**
 * What every instance and the CLI share: one database, one Redis, one forge, and the same secrets
 * (a session the CLI issues must verify on either instance, and either must open the signing key).
 */
function sharedEnvironment({ databaseUrl, redisUrl, forge }) {
  return {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    SESSION_SECRET: randomBytes(32).toString('hex'),
    FETCH_ALLOW_HOSTS: forge.host,
    FORGES: JSON.stringify([forge.forgeConfig()]),
  };
}

/** Runs `registry <args>` to completion; rejects with its stderr when it fails. */
function registryCli(args, env) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [CLI, ...args], { cwd: ROOT, env, timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`registry ${args.join(' ')} failed: ${stderr || error.message}`));
      else resolve(stdout.toString());
    });
  });
}

class Instance {
  constructor(name, env) {
    this.name = name;
    this.env = env;
    this.base = `http://127.0.0.1:${env.PORT}`;
    /** Every output line: { t (Date.now() on arrival), text }. */
    this.lines = [];
    this.child = null;
    this.exit = null;
  }

  start() {
    const child = spawn(process.execPath, [MAIN], { cwd: ROOT, env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.exit = { code, signal, t: Date.now() };
        resolve();
      }),
    );
    for (const stream of [child.stdout, child.stderr]) {
      let partial = '';
      stream.on('data', (chunk) => {
        const parts = (partial + chunk.toString()).split('\n');
        partial = parts.pop();
        const t = Date.now();
        for (const text of parts) if (text) this.lines.push({ t, text });
      });
    }
  }

  get running() {
    return this.child !== null && this.exit === null;
  }

  async waitReady(timeoutMs = 180_000) {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.exit)
        throw new Error(`instance ${this.name} exited (${this.exit.code ?? this.exit.signal}) before it was ready:\n${this.tail(20)}`);
      try {
        const res = await fetch(`${this.base}/health/ready`, { signal: AbortSignal.timeout(2_000) });
        await res.arrayBuffer();
        if (res.ok) return;
      } catch {
        // not listening yet, or the database is not back
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`instance ${this.name} was not ready within ${timeoutMs} ms:\n${this.tail(20)}`);
  }

  tail(n) {
    return this.lines
      .slice(-n)
      .map((l) => l.text)
      .join('\n');
  }

  /** SIGTERM, SIGKILL after `graceMs`. */
  async stop(graceMs = 15_000) {
    if (!this.running) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}

/** `count` instances on `shared`, each with its own port and DATA_DIR; started together, as a deploy would. */
async function startInstances(shared, count = 2) {
  const instances = [];
  const dirs = [];
  try {
    for (let i = 0; i < count; i++) {
      const port = await freePort();
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'outage-instance-'));
      dirs.push(dataDir);
      const name = String.fromCharCode(65 + i);
      instances.push(new Instance(name, { ...shared, PORT: String(port), BASE_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir }));
    }
    for (const instance of instances) instance.start();
    await Promise.all(instances.map((instance) => instance.waitReady()));
  } catch (error) {
    await stopInstances(instances, dirs);
    throw error;
  }
  return { instances, stop: () => stopInstances(instances, dirs) };
}

async function stopInstances(instances, dirs) {
  await Promise.all(instances.map((instance) => instance.stop()));
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
}

module.exports = { sharedEnvironment, registryCli, startInstances };
