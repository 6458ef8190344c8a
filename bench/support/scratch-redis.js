'use strict';
// A throwaway redis-server child on a free loopback port, killed and started again on the same
// port by the outage benchmark. The JS twin of test/support/scratch-redis.ts.
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { freePort } = require('./free-port');

function scratchRedisUnavailable() {
  return spawnSync('redis-server', ['--version']).status === 0 ? null : 'no redis-server on PATH';
}

/** PING over a raw socket: true on +PONG, false on anything else within a second. */
function answersPing(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let reply = '';
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk;
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

class ScratchRedis {
  constructor(port, dir) {
    this.port = port;
    this.dir = dir;
    this.child = null;
  }

  static async start() {
    const redis = new ScratchRedis(await freePort(), fs.mkdtempSync(path.join(os.tmpdir(), 'outage-redis-')));
    try {
      await redis.start();
      return redis;
    } catch (error) {
      await redis.remove();
      throw error;
    }
  }

  get url() {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts (again, on the same port) and waits until it answers PING. */
  async start() {
    const args = [
      '--port',
      String(this.port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--daemonize',
      'no',
      '--dir',
      this.dir,
    ];
    const child = spawn('redis-server', args, { stdio: 'ignore' });
    this.child = child;
    const until = Date.now() + 30_000;
    while (!(await answersPing(this.port))) {
      if (child.exitCode !== null) throw new Error(`redis-server on port ${this.port} exited (${child.exitCode})`);
      if (Date.now() > until) throw new Error(`redis-server on port ${this.port} did not answer within 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** SIGKILL: connections drop with no goodbye, as when the host dies. */
  async kill() {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  async remove() {
    await this.kill();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

module.exports = { ScratchRedis, scratchRedisUnavailable };
