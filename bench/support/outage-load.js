'use strict';
// The outage benchmark's open-loop load: requests are sent on a fixed schedule whatever the
// instances answer (a client population does not slow down because the server is in trouble),
// and every exchange is recorded: instance, kind, start, end, status and, for writes, what was
// written and whether it was acknowledged.
const { send } = require('./http-client');

/**
 * Shares of events; a race is two requests (one to each instance at once). Reads dominate, as on
 * a catalogue. Writes (`writeShare` of the events, split 4:1.5:3.5 between CI pushes, races and
 * webhooks) should span every fault window with acknowledged releases, yet be few enough that two
 * instances on two cores keep up with them before the faults (an ingest fetches, hashes, renders
 * and signs, and empties the response cache), so the windows measure the outage, not a backlog.
 */
function mixFor(writeShare) {
  const reads = 1 - writeShare;
  return [
    ['search', reads * 0.36],
    ['detail', reads * 0.33],
    ['latest', reads * 0.31],
    ['push', writeShare * 0.4],
    ['race', writeShare * 0.15],
    ['webhook', writeShare * 0.35],
  ];
}
const KINDS = ['search', 'detail', 'latest', 'push', 'race', 'webhook'];
const WRITES = new Set(['push', 'race', 'webhook']);
const TICK_MS = 10;

/** Acknowledged: the client was told the release is (or will be) there. */
function acknowledged(kind, status, problem) {
  if (kind === 'webhook') return status === 202 || status === 200;
  return (status >= 200 && status < 300) || (status === 409 && problem === 'version-exists');
}

/** A success for its kind: what a client would take as "it worked". */
function succeeded(record) {
  if (WRITES.has(record.kind)) return record.ack;
  return (record.status >= 200 && record.status < 300) || record.status === 304;
}

function problemOf(text) {
  try {
    const type = JSON.parse(text)?.type;
    return typeof type === 'string' ? type.split('/').pop() : null;
  } catch {
    return null;
  }
}

class OutageLoad {
  constructor(world, { rate, writeShare, timeoutMs = 30_000, seed = 1 }) {
    this.world = world;
    this.instances = world.instances;
    this.mix = mixFor(writeShare);
    this.eventRate = rate / this.mix.reduce((sum, [kind, share]) => sum + share * (kind === 'race' ? 2 : 1), 0);
    this.timeoutMs = timeoutMs;
    this.records = [];
    this.inFlight = new Set();
    this.races = 0;
    let state = seed >>> 0 || 1;
    // A fixed-seed generator: two runs ask the same things in the same order.
    this.random = () => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return state / 2 ** 32;
    };
  }

  pick(list) {
    return list[Math.floor(this.random() * list.length)];
  }

  kindFor(r) {
    for (const [kind, share] of this.mix) {
      if (r < share) return kind;
      r -= share;
    }
    return this.mix[0][0];
  }

  start() {
    this.startedAt = Date.now();
    this.issued = 0;
    this.timer = setInterval(() => {
      const due = Math.floor(((Date.now() - this.startedAt) / 1000) * this.eventRate);
      while (this.issued < due) {
        this.issued++;
        this.fire(this.kindFor(this.random() * (1 - 1e-9)));
      }
    }, TICK_MS);
  }

  /** Stops sending and waits for every request still in flight (each ends by its timeout at worst). */
  async stop() {
    clearInterval(this.timer);
    await Promise.all([...this.inFlight]);
  }

  fire(kind) {
    const world = this.world;
    const instance = this.pick(this.instances);
    if (kind === 'search') return this.exchange(instance, kind, { method: 'GET', path: `/api/plugins?search=${this.pick(world.words)}` });
    if (kind === 'detail') return this.exchange(instance, kind, { method: 'GET', path: `/api/plugins/${this.pick(world.readable)}` });
    if (kind === 'latest')
      return this.exchange(instance, kind, { method: 'GET', path: `/api/plugins/${this.pick(world.readable)}/latest` });
    if (kind === 'push') {
      const slug = this.pick(world.pushSlugs);
      const version = world.nextVersion(slug, '1.1');
      return this.exchange(instance, kind, world.pushRequest(slug, version), { slug, version });
    }
    if (kind === 'race') {
      const slug = this.pick(world.raceSlugs);
      const version = world.nextVersion(slug, '2.0');
      const race = ++this.races;
      for (const each of this.instances) this.exchange(each, kind, world.pushRequest(slug, version), { slug, version, race });
      return;
    }
    const hook = this.pick(world.hooks);
    const version = world.nextVersion(hook.slug, '3.0');
    this.exchange(instance, kind, world.webhookRequest(hook, version), { slug: hook.slug, version });
  }

  exchange(instance, kind, request, write = null) {
    const start = Date.now();
    const pending = send(instance, request, this.timeoutMs).then((answer) => {
      const problem = answer.status >= 400 ? problemOf(answer.text) : null;
      const record = {
        instance: instance.name,
        kind,
        start,
        end: Date.now(),
        status: answer.status,
        error: answer.error,
        retryAfter: answer.headers['retry-after'] ?? null,
        problem,
        // What the answer said when it was not a success, for the report's examples.
        detail: answer.status >= 300 || answer.status === 0 ? answer.text.slice(0, 300) : null,
        ...(write ?? {}),
      };
      if (write) record.ack = acknowledged(kind, answer.status, problem);
      this.records.push(record);
      this.inFlight.delete(pending);
    });
    this.inFlight.add(pending);
  }
}

module.exports = { OutageLoad, KINDS, WRITES, succeeded };
