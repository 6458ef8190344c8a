'use strict';
// What the outage benchmark publishes into and how each write is shaped: the settings, the owner
// and their publisher token, the seeded plugins (catalogue, CI-push, race and webhook ones) and
// the bodies of CI pushes and signed GitHub release webhooks.
const { createHmac, randomUUID } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { manifestYaml } = require('./fake-github');
const { registryCli } = require('./registry-instances');
const { send } = require('./http-client');

const FIXTURE = path.join(__dirname, '..', '..', 'test', 'fixtures', 'webhooks', 'github-release-published.with-assets.json');
const OWNER = 'outage-owner';
const WORDS = ['aurora', 'basalt', 'cobalt', 'delta', 'ember', 'fjord', 'glacier', 'harbor', 'indigo', 'juniper'];

/**
 * The harness is one client address sending ~140 requests a second: without lifting the
 * per-address limits it would measure 429s, not the outage. Reconciliation is off so the only
 * deliveries are the ones the benchmark sends and counts.
 */
const SETTINGS = {
  'ratelimit.public_read_per_min': 1_000_000,
  'ratelimit.publish_per_min': 1_000_000,
  'ratelimit.webhook_per_min': 1_000_000,
  'ingest.max_concurrent': 1_000,
  'ingest.max_concurrent_per_user': 1_000,
  'webhooks.reconcile_interval_s': 0,
};

async function applySettings(pg, database) {
  for (const [key, value] of Object.entries(SETTINGS)) {
    await pg.query(
      `INSERT INTO app_setting (key, value, updated_at) VALUES ($1, $2::jsonb, now()) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
      [key, JSON.stringify(value)],
      database,
    );
  }
}

/** The owner's session JWT, made through the CLI as an operator would (before the instances start). */
async function ownerSession(env) {
  await registryCli(['users', 'create', OWNER], env);
  return (await registryCli(['sessions', 'issue', OWNER], env)).trim();
}

function jsonRequest(method, urlPath, bearer, body) {
  const headers = { Authorization: `Bearer ${bearer}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return { method, path: urlPath, headers, body: body === undefined ? undefined : JSON.stringify(body) };
}

async function expectStatus(instance, request, status, what) {
  const answer = await send(instance, request, 60_000);
  if (answer.status !== status) throw new Error(`${what} answered ${answer.status} (expected ${status}): ${answer.text.slice(0, 500)}`);
  return answer.text ? JSON.parse(answer.text) : null;
}

class OutageWorld {
  constructor(forge, instances, jwt) {
    this.forge = forge;
    this.instances = instances;
    this.jwt = jwt;
    this.token = '';
    this.catalogue = [];
    this.pushSlugs = [];
    this.raceSlugs = [];
    this.hooks = [];
    this.counters = new Map();
    this.fixture = fs.readFileSync(FIXTURE, 'utf8');
  }

  get words() {
    return WORDS;
  }

  /** The next unused version of `slug` in the `major.minor` series. */
  nextVersion(slug, series) {
    const key = `${slug} ${series}`;
    const n = (this.counters.get(key) ?? 0) + 1;
    this.counters.set(key, n);
    return `${series}.${n}`;
  }

  pushRequest(slug, version) {
    const repo = `acme/${slug}`;
    const assets = this.forge.releaseAssets(repo, slug, version, version, false);
    const body = {
      manifest: manifestYaml(slug, version),
      manifestSource: 'plugin.yaml',
      version,
      assets,
      repoUrl: this.forge.repoUrl(repo),
    };
    return jsonRequest('POST', `/api/publish/${slug}`, this.token, body);
  }

  /** GitHub's `release published` for `v<version>`, signed with the plugin's secret as GitHub signs it. */
  webhookRequest(hook, version) {
    const tag = `v${version}`;
    const payload = JSON.parse(this.fixture);
    const template = payload.release.assets[0];
    payload.action = 'published';
    payload.repository.html_url = this.forge.repoUrl(hook.repo);
    payload.repository.full_name = hook.repo;
    payload.release.tag_name = tag;
    payload.release.draft = false;
    const assets = this.forge.releaseAssets(hook.repo, hook.slug, tag, version, true);
    payload.release.assets = assets.map((a, i) => ({ ...template, id: i + 1, name: a.name, browser_download_url: a.url }));
    const body = JSON.stringify(payload);
    const signature = createHmac('sha256', hook.secret).update(body).digest('hex');
    const headers = {
      'Content-Type': 'application/json',
      'X-GitHub-Event': 'release',
      'X-GitHub-Delivery': randomUUID(),
      'X-GitHub-Hook-ID': '1',
      'X-Hub-Signature-256': `sha256=${signature}`,
      'User-Agent': 'GitHub-Hookshot/outage-bench',
    };
    return { method: 'POST', path: '/api/webhooks/release', headers, body };
  }

  /**
   * The owner's publisher token, then every plugin claimed with a first push of 1.0.0 (a few at a
   * time), and a webhook secret for each webhook plugin.
   */
  async seed({ catalogue = 20, push = 16, race = 8, hooks = 10 } = {}) {
    const [a] = this.instances;
    const created = await expectStatus(
      a,
      jsonRequest('POST', '/api/auth/me/tokens', this.jwt, { name: 'outage-bench', scopes: ['publish:*'] }),
      201,
      'token create',
    );
    this.token = created.token;
    const word = (i) => WORDS[i % WORDS.length];
    this.catalogue = Array.from({ length: catalogue }, (_, i) => `cat-${word(i)}-${i}`);
    this.pushSlugs = Array.from({ length: push }, (_, i) => `ci-${word(i + 3)}-${i}`);
    this.raceSlugs = Array.from({ length: race }, (_, i) => `race-${word(i + 5)}-${i}`);
    const hookSlugs = Array.from({ length: hooks }, (_, i) => `hook-${word(i + 7)}-${i}`);
    const all = [...this.catalogue, ...this.pushSlugs, ...this.raceSlugs, ...hookSlugs];
    for (let i = 0; i < all.length; i += 4) {
      await Promise.all(
        all
          .slice(i, i + 4)
          .map((slug, j) => expectStatus(this.instances[j % 2], this.pushRequest(slug, '1.0.0'), 201, `seed push of ${slug}`)),
      );
    }
    for (const slug of hookSlugs) {
      const rotated = await expectStatus(
        a,
        jsonRequest('POST', `/api/plugins/${slug}/webhook-secret`, this.jwt, {}),
        200,
        `webhook secret of ${slug}`,
      );
      this.hooks.push({ slug, repo: `acme/${slug}`, secret: rotated.webhookSecret });
    }
  }

  /** Every slug a reader may ask for (all of them exist from the seed on). */
  get readable() {
    return [...this.catalogue, ...this.pushSlugs, ...this.raceSlugs, ...this.hooks.map((h) => h.slug)];
  }
}

module.exports = { OutageWorld, applySettings, ownerSession };
