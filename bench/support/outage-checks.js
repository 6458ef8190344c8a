'use strict';
// After the load: wait for webhook deliveries to drain, then hold every acknowledged write to
// account in the database (present exactly once; one release per raced version) and check that
// every acknowledged release verifies on both instances.
const { createPublicKey, verify } = require('node:crypto');
const { send } = require('./http-client');

const DRAIN_TIMEOUT_MS = 120_000;

/** Polls webhook_delivery until nothing is queued or being processed, or `timeoutMs` passed. */
async function drainDeliveries(pg, database, timeoutMs = DRAIN_TIMEOUT_MS) {
  const started = Date.now();
  let left;
  for (;;) {
    const rows = await pg.query(`SELECT count(*)::int AS n FROM webhook_delivery WHERE status IN ('queued', 'processing')`, [], database);
    left = rows[0].n;
    if (left === 0 || Date.now() - started > timeoutMs) break;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  const byStatus = await pg.query(
    `SELECT status, coalesce(reason, '') AS reason, count(*)::int AS n FROM webhook_delivery GROUP BY 1, 2 ORDER BY 1, 2`,
    [],
    database,
  );
  // What still waits, and for when: a retry backed off past the drain is not the same as a stuck row.
  const waiting = await pg.query(
    `SELECT status, attempts, coalesce(reason, '') AS reason, round(extract(epoch FROM next_attempt_at - now()))::int AS due_s, count(*)::int AS n
     FROM webhook_delivery WHERE status IN ('queued', 'processing') GROUP BY 1, 2, 3, 4 ORDER BY 5 DESC LIMIT 6`,
    [],
    database,
  );
  const leftover = await pg.query(
    `SELECT p.slug, ltrim(d.tag, 'v') AS version, d.status, d.attempts, d.created_at FROM webhook_delivery d JOIN plugin p ON p.id = d.plugin_id
     WHERE d.status IN ('queued', 'processing') ORDER BY d.created_at LIMIT 8`,
    [],
    database,
  );
  return { left, waited: (Date.now() - started) / 1000, byStatus, waiting, leftover };
}

const key = (slug, version) => `${slug}@${version}`;

/** Verifies a release record's JWS against the instance's key set; null when good, else why not. */
function jwsProblem(record, keys, slug, version) {
  const jws = record?.integrity?.jws;
  if (typeof jws !== 'string') return 'no integrity.jws';
  const parts = jws.split('.');
  if (parts.length !== 3) return 'malformed JWS';
  const header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
  const jwk = keys.find((k) => k.kid === header.kid);
  if (header.alg !== 'EdDSA' || !jwk) return `unknown kid or alg (${header.alg}, ${header.kid})`;
  const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
  if (!verify(null, Buffer.from(`${parts[0]}.${parts[1]}`), publicKey, Buffer.from(parts[2], 'base64url'))) return 'bad signature';
  const payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
  if (payload.slug !== slug || payload.version !== version) return `signs ${payload.slug}@${payload.version}`;
  return null;
}

async function verifyOnEveryInstance(instances, releases) {
  const keySets = [];
  for (const instance of instances) {
    const answer = await send(instance, { method: 'GET', path: '/.well-known/registry-key.json' }, 30_000);
    keySets.push(answer.status === 200 ? JSON.parse(answer.text).keys : []);
  }
  const failures = [];
  let next = 0;
  const worker = async () => {
    while (next < releases.length) {
      const { slug, version } = releases[next++];
      for (const [i, instance] of instances.entries()) {
        const answer = await send(instance, { method: 'GET', path: `/api/plugins/${slug}/releases/${version}` }, 30_000);
        const why = answer.status !== 200 ? `status ${answer.status}` : jwsProblem(JSON.parse(answer.text), keySets[i], slug, version);
        if (why) failures.push(`${key(slug, version)} on ${instance.name}: ${why}`);
      }
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
  return failures;
}

/**
 * Holds the records' writes to account. `inWindow(record)` says which writes a fault is judged on
 * (lost ones are counted per window by the caller from `lost`).
 */
async function checkWrites(pg, database, instances, records) {
  const rows = await pg.query(
    `SELECT p.slug, r.version, count(*)::int AS n FROM release r JOIN plugin p ON p.id = r.plugin_id GROUP BY 1, 2`,
    [],
    database,
  );
  const stored = new Map(rows.map((r) => [key(r.slug, r.version), r.n]));
  const writes = records.filter((r) => r.version !== undefined);
  const acked = writes.filter((r) => r.ack);
  const lost = acked.filter((r) => !stored.has(key(r.slug, r.version)));
  const duplicated = rows.filter((r) => r.n > 1).map((r) => key(r.slug, r.version));
  const ackedKeys = new Set(acked.map((r) => key(r.slug, r.version)));
  // Recorded although the client was never told so (a timeout, a 5xx after the commit).
  const unacknowledgedButStored = new Set(
    writes.filter((r) => !ackedKeys.has(key(r.slug, r.version)) && stored.has(key(r.slug, r.version))).map((r) => key(r.slug, r.version)),
  );
  const races = new Map();
  for (const r of writes.filter((w) => w.race !== undefined)) races.set(r.race, [...(races.get(r.race) ?? []), r]);
  let raceOverOne = 0;
  let raceTwoCreated = 0;
  for (const pair of races.values()) {
    if ((stored.get(key(pair[0].slug, pair[0].version)) ?? 0) > 1) raceOverOne++;
    if (pair.filter((r) => r.status === 201).length > 1) raceTwoCreated++;
  }
  const lostDeliveries = lost.length
    ? await pg.query(
        `SELECT p.slug, d.tag, d.status, coalesce(d.reason, '') AS reason, coalesce(d.detail, '') AS detail FROM webhook_delivery d JOIN plugin p ON p.id = d.plugin_id WHERE (p.slug || '@' || ltrim(d.tag, 'v')) = ANY($1)`,
        [lost.filter((r) => r.kind === 'webhook').map((r) => key(r.slug, r.version))],
        database,
      )
    : [];
  const releases = [...ackedKeys].filter((k) => stored.has(k)).map((k) => ({ slug: k.split('@')[0], version: k.split('@')[1] }));
  const unverified = await verifyOnEveryInstance(instances, releases);
  return {
    acked: acked.length,
    ackedReleases: ackedKeys.size,
    lost,
    duplicated,
    unacknowledgedButStored: unacknowledgedButStored.size,
    races: races.size,
    raceOverOne,
    raceTwoCreated,
    lostDeliveries,
    unverified,
  };
}

module.exports = { drainDeliveries, checkWrites };
