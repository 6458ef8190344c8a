'use strict';
// A GitHub-shaped forge on 127.0.0.1 for the outage benchmark: release assets (a small zip and
// the plugin manifest) at any /files/<owner>/<repo>/<tag>/<name>, a README at every tag, the
// repository record, releases by tag and the recent-releases list the delivery worker and
// reconciler read. Plain JS on purpose:
// benchmarks run against dist/ without the TypeScript test helpers.
const { createHash } = require('node:crypto');
const http = require('node:http');

const API = '/api/v3';

/** The manifest a release of `slug@version` carries, in the YAML the tests write. */
function manifestYaml(slug, version, description = 'Published under a database outage') {
  return [`name: ${JSON.stringify(slug)}`, `version: ${JSON.stringify(version)}`, `description: ${JSON.stringify(description)}`].join('\n');
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** A real (stored, one-entry) zip, different for every release so no two assets hash alike. */
function zipOf(fileName, content) {
  const name = Buffer.from(fileName);
  const data = Buffer.from(content);
  const crc = crc32(data);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(name.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + name.length, 12);
  end.writeUInt32LE(local.length + name.length + data.length, 16);
  return Buffer.concat([local, name, data, central, name, end]);
}

class FakeGithub {
  constructor() {
    this.server = null;
    this.url = '';
    /** owner/repo -> tag -> asset refs, for the release-by-tag and recent-releases reads. */
    this.releases = new Map();
    /** Requests per route, and paths nobody serves (what to add when the registry asks for more). */
    this.hits = new Map();
    this.unknown = new Map();
  }

  async start() {
    this.server = http.createServer((req, res) => this.dispatch(req, res));
    this.server.keepAliveTimeout = 5_000;
    await new Promise((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${this.server.address().port}`;
    return this;
  }

  async stop() {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(() => resolve()));
  }

  get host() {
    return new URL(this.url).host;
  }

  /** The FORGES entry naming this forge (no OAuth: claims need no proof of repository control). */
  forgeConfig(name = 'fakehub') {
    return { name, type: 'github', webUrl: this.url, apiUrl: `${this.url}${API}` };
  }

  repoUrl(repo) {
    return `${this.url}/${repo}`;
  }

  /** Asset refs of `repo@tag` (a manifest when `withManifest`, and a zip), remembered for API reads. */
  releaseAssets(repo, slug, tag, version, withManifest) {
    const base = `${this.url}/files/${repo}/${encodeURIComponent(tag)}`;
    const zipName = `${slug}-${version}.zip`;
    const assets = [{ name: zipName, url: `${base}/${zipName}` }];
    if (withManifest) assets.unshift({ name: 'plugin.yaml', url: `${base}/plugin.yaml` });
    if (!this.releases.has(repo)) this.releases.set(repo, new Map());
    this.releases.get(repo).set(tag, assets);
    return assets;
  }

  count(map, key) {
    map.set(key, (map.get(key) ?? 0) + 1);
  }

  dispatch(req, res) {
    req.resume();
    const path = (req.url ?? '/').split('?')[0];
    const json = (status, body) => res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    const route = (name) => this.count(this.hits, name);
    let m;
    if (req.method !== 'GET') return this.notFound(req, res, path);
    if ((m = /^\/files\/([^/]+)\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(path))) {
      const [, owner, repo, rawTag, name] = m.map(decodeURIComponent);
      const tag = rawTag.replace(/^v/, '');
      if (name === 'plugin.yaml') {
        route('manifest asset');
        return res.writeHead(200, { 'Content-Type': 'text/yaml' }).end(manifestYaml(repo, tag));
      }
      route('zip asset');
      const body = zipOf('plugin.txt', `${owner}/${repo}@${tag}/${name}\n`);
      return res.writeHead(200, { 'Content-Type': 'application/zip', 'Content-Length': String(body.length) }).end(body);
    }
    if ((m = /^\/([^/]+)\/([^/]+)\/raw\/([^/]+)\/README\.md$/.exec(path))) {
      // Real repositories have one; without it every ingest logs a warning that drowns the outage's.
      route('readme');
      return res
        .writeHead(200, { 'Content-Type': 'text/plain' })
        .end(`# ${decodeURIComponent(m[2])}\n\nReleased at ${decodeURIComponent(m[3])}.\n`);
    }
    if ((m = /^\/api\/v3\/repos\/([^/]+)\/([^/]+)$/.exec(path))) {
      route('repository');
      const full = `${decodeURIComponent(m[1])}/${decodeURIComponent(m[2])}`;
      const id = parseInt(createHash('sha256').update(full).digest('hex').slice(0, 8), 16);
      return json(200, {
        id,
        node_id: `R_${id}`,
        name: m[2],
        full_name: full,
        owner: { login: m[1] },
        private: false,
        html_url: this.repoUrl(full),
        stargazers_count: 1,
        forks_count: 0,
        subscribers_count: 1,
      });
    }
    if ((m = /^\/api\/v3\/repos\/([^/]+)\/([^/]+)\/releases\/tags\/([^/]+)$/.exec(path))) {
      route('release by tag');
      const tag = decodeURIComponent(m[3]);
      const assets = this.releases.get(`${m[1]}/${m[2]}`)?.get(tag);
      return assets ? json(200, this.releaseDocument(tag, assets)) : json(404, { message: 'Not Found' });
    }
    if ((m = /^\/api\/v3\/repos\/([^/]+)\/([^/]+)\/releases$/.exec(path))) {
      route('recent releases');
      const known = [...(this.releases.get(`${m[1]}/${m[2]}`) ?? new Map())].reverse().slice(0, 20);
      return json(
        200,
        known.map(([tag, assets]) => this.releaseDocument(tag, assets)),
      );
    }
    return this.notFound(req, res, path);
  }

  releaseDocument(tag, assets) {
    return {
      tag_name: tag,
      draft: false,
      prerelease: false,
      assets: assets.map((a, i) => ({ id: i + 1, name: a.name, browser_download_url: a.url })),
    };
  }

  /** GitHub's 404; README reads at a tag land here too, which the registry takes as "no README". */
  notFound(req, res, path) {
    this.count(this.unknown, `${req.method} ${path.replace(/\/[^/]+\/[^/]+\/(raw|contents)\/.*/, '/<repo>/$1/…')}`);
    res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"message":"Not Found"}');
  }
}

module.exports = { FakeGithub, manifestYaml };
