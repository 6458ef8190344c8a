'use strict';
// Database and Redis outage benchmark: what clients of two compiled instances see when the
// PostgreSQL server restarts and when Redis dies and comes back, under mixed load (catalogue reads,
// CI pushes, same-version races across the two instances, signed GitHub release webhooks) at about
// OUTAGE_RATE requests a second. Everything it needs is its own: a PostgreSQL cluster from initdb and
// a redis-server on free ports (never the machine's shared ones), a GitHub-shaped fake forge, and
// the two instances (`node dist/main.js`, whose output it reads to count log lines per window).
// Timeline: 10 s of warm-up load (not counted: a fresh server's first seconds are slower); ~15 s
// of steady load; `pg_ctl stop -m fast`, OUTAGE_DOWN_S down, `pg_ctl start -w`; once both
// instances answer ready again, ~15 s; Redis killed, OUTAGE_DOWN_S down, started on the same port;
// ~15 s more. Then the deliveries drain and every acknowledged write is held to account. Whether a
// restart lands inside an ingest's transaction is chance: OUTAGE_RUNS gives it more chances, and a
// larger OUTAGE_WRITE_SHARE (0.2 keeps several ingests under way on each instance) more to land in.
// Settings (environment):
//   OUTAGE_RUNS         how many times the whole thing runs, each on fresh stores (1)
//   OUTAGE_RATE         requests per second across both instances (140)
//   OUTAGE_DOWN_S       seconds each store stays down (10)
//   OUTAGE_WRITE_SHARE  share of the load's events that are writes (0.06: ~8 a second at 140/s)
//   OUTAGE_LOG_DIR      where to keep each instance's output (run<n>-<instance>.log); unset: not kept
// Needs the build (npm run bench does it), PostgreSQL server binaries under /usr/lib/postgresql
// and redis-server on PATH.
const fs = require('node:fs');
const path = require('node:path');
const { ScratchPostgres, scratchPostgresUnavailable } = require('./support/scratch-postgres');
const { ScratchRedis, scratchRedisUnavailable } = require('./support/scratch-redis');
const { FakeGithub } = require('./support/fake-github');
const { sharedEnvironment, registryCli, startInstances } = require('./support/registry-instances');
const { OutageWorld, applySettings, ownerSession } = require('./support/outage-world');
const { OutageLoad } = require('./support/outage-load');
const { windowReport, targetsOf, targetLine, combinedTargets } = require('./support/outage-report');
const { drainDeliveries, checkWrites } = require('./support/outage-checks');
const { closeAgents } = require('./support/http-client');

const DATABASE = 'registry';
const STEADY_S = 15;
const WARMUP_S = 10;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const secondsSince = (from, t) => ((t - from) / 1000).toFixed(1);

function settings() {
  const number = (name, fallback, min, max) => {
    const raw = process.env[name];
    const value = raw === undefined || raw === '' ? fallback : Number(raw);
    if (!Number.isFinite(value) || value < min || value > max) throw new Error(`${name} must be a number from ${min} to ${max}`);
    return value;
  };
  return {
    runs: number('OUTAGE_RUNS', 1, 1, 20),
    rate: number('OUTAGE_RATE', 140, 1, 2_000),
    downS: number('OUTAGE_DOWN_S', 10, 1, 300),
    writeShare: number('OUTAGE_WRITE_SHARE', 0.06, 0, 1),
  };
}

/** Undone in reverse order by `cleanUp`, also when a signal ends the benchmark midway. */
const undo = [];

async function cleanUp() {
  while (undo.length) {
    const step = undo.pop();
    await step().catch((error) => process.stderr.write(`database-outage: clean-up: ${error.message}\n`));
  }
  closeAgents();
}

function keepLogs(dir, runNumber, instances) {
  fs.mkdirSync(dir, { recursive: true });
  for (const instance of instances) {
    const text = instance.lines.map((l) => `${new Date(l.t).toISOString()} ${l.text}`).join('\n');
    fs.writeFileSync(path.join(dir, `run${runNumber}-${instance.name}.log`), `${text}\n`);
  }
}

/** The two stores, the forge, the instances and the seeded world; each registered for clean-up. */
async function openWorld(runNumber) {
  const pg = await ScratchPostgres.fresh();
  undo.push(() => pg.remove());
  await pg.query(`CREATE DATABASE ${DATABASE}`);
  const redis = await ScratchRedis.start();
  undo.push(() => redis.remove());
  const forge = await new FakeGithub().start();
  undo.push(() => forge.stop());
  const env = sharedEnvironment({ databaseUrl: pg.url(DATABASE), redisUrl: redis.url, forge });
  await registryCli(['migrate'], env);
  await applySettings(pg, DATABASE);
  const jwt = await ownerSession(env);
  const { instances, stop } = await startInstances(env, 2);
  const logDir = process.env.OUTAGE_LOG_DIR;
  // Registered before the stop, so it runs after it and keeps the shutdown lines too.
  if (logDir) undo.push(async () => keepLogs(logDir, runNumber, instances));
  undo.push(stop);
  const world = new OutageWorld(forge, instances, jwt);
  await world.seed();
  return { pg, redis, forge, instances, world };
}

/** When every instance answered ready again, or null if one did not within 120 s. */
async function instancesReady(instances) {
  try {
    await Promise.all(instances.map((instance) => instance.waitReady(120_000)));
    return Date.now();
  } catch {
    return null;
  }
}

/** Load from start to end, with both faults in it; the records and when each step happened. */
async function timeline({ pg, redis, instances, world }, config) {
  const load = new OutageLoad(world, { rate: config.rate, writeShare: config.writeShare });
  const marks = { start: Date.now() };
  load.start();
  await sleep(STEADY_S * 1000);
  marks.pgStop = Date.now();
  await pg.stop('fast');
  marks.pgStopped = Date.now();
  await sleep(config.downS * 1000);
  await pg.start();
  marks.pgReady = Date.now();
  marks.instancesReady = await instancesReady(instances);
  await sleep(STEADY_S * 1000);
  marks.redisKill = Date.now();
  await redis.kill();
  await sleep(config.downS * 1000);
  await redis.start();
  marks.redisReady = Date.now();
  await sleep(STEADY_S * 1000);
  marks.end = Date.now();
  await load.stop();
  return { records: load.records, marks };
}

async function oneRun(config, runNumber) {
  const opened = await openWorld(runNumber);
  const { pg, forge, instances, world } = opened;
  const lines = [];
  const warmUp = new OutageLoad(world, { rate: config.rate, writeShare: config.writeShare, seed: 2 });
  warmUp.start();
  await sleep(WARMUP_S * 1000);
  await warmUp.stop();
  const warmDrain = await drainDeliveries(pg, DATABASE, 30_000);
  lines.push(`warm-up: ${warmUp.records.length} requests in ${WARMUP_S} s, deliveries drained in ${warmDrain.waited.toFixed(1)} s`);

  const { records, marks } = await timeline(opened, config);
  const took = (marks.end - marks.start) / 1000;
  lines.push(
    `${records.length} requests in ${took.toFixed(1)} s (${(records.length / took).toFixed(0)}/s) on instances ${instances.map((i) => i.name).join(', ')}`,
  );
  const ready = marks.instancesReady === null ? 'NOT within 120 s' : `${((marks.instancesReady - marks.pgReady) / 1000).toFixed(2)} s`;
  lines.push(
    `pg_ctl stop took ${secondsSince(marks.pgStop, marks.pgStopped)} s; both instances answered ready ${ready} after pg_ctl start returned`,
  );
  const report = windowReport(records, instances, marks);
  lines.push(...report.lines);

  const drain = await drainDeliveries(pg, DATABASE);
  const statuses = drain.byStatus.map((r) => `${r.status}${r.reason ? `/${r.reason}` : ''}:${r.n}`).join(' ');
  lines.push(`deliveries drained in ${drain.waited.toFixed(1)} s; left queued or processing: ${drain.left}; by status: ${statuses}`);
  for (const w of drain.waiting)
    lines.push(
      `  still ${w.status}: ${w.n} after ${w.attempts} attempt(s)${w.reason ? ` (${w.reason})` : ''}, next attempt due in ${w.due_s} s`,
    );
  for (const d of drain.leftover) {
    // What the forge was told about the delivery still waiting (a 503 may still have stored it).
    const sent = records.filter((r) => r.kind === 'webhook' && r.slug === d.slug && r.version === d.version);
    const told =
      sent.map((r) => `${r.status} via ${r.instance} at +${secondsSince(marks.start, r.end)} s`).join(', ') || 'not sent by this run';
    lines.push(
      `  left ${d.status}: ${d.slug}@${d.version}, stored at +${secondsSince(marks.start, new Date(d.created_at).getTime())} s, ${d.attempts} attempt(s); answered ${told}`,
    );
  }
  const checks = await checkWrites(pg, DATABASE, instances, records);
  lines.push(
    `acknowledged writes: ${checks.acked} (${checks.ackedReleases} releases); recorded without acknowledgement: ${checks.unacknowledgedButStored}; races: ${checks.races}, with two 201s: ${checks.raceTwoCreated}`,
  );
  for (const r of checks.lost.slice(0, 8))
    lines.push(
      `  lost: ${r.kind} ${r.slug}@${r.version} via ${r.instance} answered ${r.status} at +${secondsSince(marks.start, r.start)} s`,
    );
  for (const d of checks.lostDeliveries.slice(0, 8))
    lines.push(`  lost delivery: ${d.slug} ${d.tag} ${d.status} ${d.reason} ${d.detail.slice(0, 160)}`);
  for (const failure of checks.unverified.slice(0, 8)) lines.push(`  does not verify: ${failure}`);
  const unserved = [...forge.unknown].map(([route, n]) => `${route} x${n}`).join(', ');
  if (unserved) lines.push(`forge paths answered 404: ${unserved}`);
  const exited = instances.filter((i) => i.exit !== null);
  for (const i of exited)
    lines.push(`instance ${i.name} exited (${i.exit.code ?? i.exit.signal}) at +${secondsSince(marks.start, i.exit.t)} s`);

  const targets = targetsOf(report, marks, checks, drain.left, exited.length);
  lines.push(...targets.map(targetLine));
  return { lines, targets };
}

module.exports = async function run() {
  const config = settings();
  const why = scratchPostgresUnavailable() ?? scratchRedisUnavailable();
  if (why) return [`skipped: ${why}`];
  // Interrupted, it still stops what it started (instances, redis-server, the cluster) and deletes their files.
  const onSignal = (signal) => {
    process.stderr.write(`database-outage: ${signal}, cleaning up\n`);
    cleanUp().finally(() => process.exit(130));
  };
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, onSignal);
  const lines = [
    `rate ${config.rate}/s across two instances (write share ${config.writeShare}), stores down ${config.downS} s each, ${config.runs} run(s)`,
  ];
  const all = [];
  try {
    for (let i = 1; i <= config.runs; i++) {
      if (config.runs > 1) lines.push(`# run ${i} of ${config.runs}`);
      try {
        const result = await oneRun(config, i);
        lines.push(...result.lines);
        all.push(result.targets);
      } finally {
        await cleanUp();
      }
    }
  } finally {
    for (const signal of ['SIGINT', 'SIGTERM']) process.off(signal, onSignal);
  }
  if (config.runs > 1) {
    lines.push(`# all ${config.runs} runs (counts summed; recovery: the worst)`);
    lines.push(...combinedTargets(all).map(targetLine));
  }
  return lines;
};

if (require.main === module) {
  module.exports().then(
    (lines) => lines.forEach((l) => console.log(l)),
    (error) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
