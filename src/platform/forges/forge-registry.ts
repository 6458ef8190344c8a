import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { BackgroundLoop } from '../../common/background-loop';
import { ChangeChannel } from '../../common/redis/change-channel';
import { SharedRedis } from '../../common/redis/shared-redis';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig, ForgeInstanceConfig } from '../../config/config.types';
import { DEFAULT_FORGES, DEFAULT_OIDC_ISSUERS } from '../../config/forges';
import type { ForgeType } from '../../lib/forge/types';
import { openClientSecret } from './stored-forge-secret';
import { type StoredForgeRow, StoredForgesRepository } from './stored-forges.repository';

/**
 * Where a live instance comes from: the `FORGES` variable (read-only), the built-in defaults used
 * when `FORGES` is unset (an admin may add an instance of the same name or web URL in its place,
 * to give github.com sign-in, say), or added by an admin and stored.
 */
export type ForgeSource = 'configuration' | 'default' | 'stored';

export interface LiveForge {
  readonly forge: ForgeInstanceConfig;
  readonly source: ForgeSource;
  /** For stored instances: when, and by whom (null: the install wizard's bootstrap token). */
  readonly createdAt: Date | null;
  readonly createdBy: string | null;
}

/** How often every instance checks the stored list's version without being told (Redis tells at once). */
export const FORGE_RELOAD_INTERVAL_MS = 5_000;

/** A web URL as compared for "the same forge": scheme and host lowercased, no trailing slash. */
export function webUrlKey(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, '')}`.toLowerCase();
  } catch {
    return url.toLowerCase();
  }
}

function isBuiltInDefault(forge: ForgeInstanceConfig): boolean {
  const builtIn = DEFAULT_FORGES.find((d) => d.name === forge.name);
  return builtIn !== undefined && JSON.stringify(builtIn) === JSON.stringify(forge);
}

/** A stored row as the registry needs it: no entity methods, the sealed secret included. */
export type StoredForgeInput = Pick<
  StoredForgeRow,
  'name' | 'type' | 'webUrl' | 'apiUrl' | 'clientId' | 'clientSecretSealed' | 'createdAt' | 'createdBy'
>;

/**
 * The live list: the configured instances in order, each stored one appended, or put in the place
 * of the built-in default it shares a name or web URL with. A stored one clashing with a FORGES
 * entry is left out (the configuration wins); one whose secret cannot be opened stays, without
 * sign-in. A stored public instance (github.com, gitlab.com) gets its CI OIDC issuer unless another
 * instance has it.
 */
export function composeForges(
  configured: readonly ForgeInstanceConfig[],
  rows: readonly StoredForgeInput[],
  options: { openSecret(row: StoredForgeInput): string; warn(key: string, line: string): void },
): LiveForge[] {
  const live: LiveForge[] = configured.map((forge) => ({
    forge,
    source: isBuiltInDefault(forge) ? 'default' : 'configuration',
    createdAt: null,
    createdBy: null,
  }));
  for (const row of rows) {
    const clash = live.findIndex((entry) => entry.forge.name === row.name || webUrlKey(entry.forge.webUrl) === webUrlKey(row.webUrl));
    if (clash >= 0 && live[clash].source !== 'default') {
      options.warn(
        `${row.name}:clash`,
        `the stored forge instance "${row.name}" is ignored: "${live[clash].forge.name}" in FORGES has its name or web URL`,
      );
      continue;
    }
    let clientSecret: string | null = null;
    try {
      clientSecret = options.openSecret(row);
    } catch {
      options.warn(
        `${row.name}:secret`,
        `the client secret of forge instance "${row.name}" cannot be decrypted (KEY_ENCRYPTION_KEY is not the key it was stored with): sign-in with it is off until it is added again`,
      );
    }
    const others = live.filter((_, i) => i !== clash);
    const issuer = DEFAULT_OIDC_ISSUERS[row.webUrl];
    const oidcIssuer = issuer && !others.some((entry) => entry.forge.oidcIssuer === issuer) ? issuer : undefined;
    const forge: ForgeInstanceConfig = Object.freeze({
      name: row.name,
      type: row.type as ForgeType,
      webUrl: row.webUrl,
      apiUrl: row.apiUrl,
      ...(clientSecret !== null ? { clientId: row.clientId, clientSecret } : {}),
      ...(oidcIssuer ? { oidcIssuer } : {}),
    });
    const entry: LiveForge = { forge, source: 'stored', createdAt: row.createdAt, createdBy: row.createdBy };
    if (clash >= 0) live[clash] = entry;
    else live.push(entry);
  }
  return live;
}

/**
 * The live forge instances: the configured ones (`FORGES`, or the defaults) and those admins
 * added, which take effect without a restart on every server. The list is kept in memory, so the
 * many synchronous readers (URL matching, webhooks, ingest) stay synchronous; it is reloaded when
 * the stored list's version moves: checked at once after a change through this server, on a
 * Redis message from another (REDIS_URL), before every sign-in and provider listing (`current`),
 * and every FORGE_RELOAD_INTERVAL_MS otherwise.
 */
@Injectable()
export class ForgeRegistry implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Forges');
  private live: readonly LiveForge[];
  private loadedVersion: string | null = null;
  /** A load queued behind the one running, joined by every caller until it starts. */
  private waiting: Promise<void> | null = null;
  private tail: Promise<void> = Promise.resolve();
  private readonly loop: BackgroundLoop;
  private readonly channel: ChangeChannel;
  /** Undecryptable secrets already warned about, by name and version, so a poll does not repeat it. */
  private readonly warned = new Set<string>();
  private failing = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly stored: StoredForgesRepository,
    redis: SharedRedis,
  ) {
    this.live = this.compose([]);
    this.loop = new BackgroundLoop(
      () => this.refresh(),
      FORGE_RELOAD_INTERVAL_MS,
      (error) => this.reportFailure(error),
    );
    this.channel = new ChangeChannel(redis, 'forges-changed');
  }

  async onModuleInit(): Promise<void> {
    // A database that is not answering yet must not stop the start: the loop loads it later.
    await this.refresh().catch((error: Error) => this.reportFailure(error));
  }

  onApplicationBootstrap(): void {
    this.channel.listen(() => void this.reload().catch((error: Error) => this.reportFailure(error)));
    this.loop.start();
  }

  async onModuleDestroy(): Promise<void> {
    this.channel.close();
    await this.loop.stop();
    // A reload still running (a change just made) must finish before the DataSource closes.
    await this.tail;
  }

  all(): readonly ForgeInstanceConfig[] {
    return this.live.map((entry) => entry.forge);
  }

  /** Every live instance with where it comes from (the admin list). */
  entries(): readonly LiveForge[] {
    return this.live;
  }

  byName(name: string): ForgeInstanceConfig | null {
    return this.live.find((entry) => entry.forge.name === name)?.forge ?? null;
  }

  /** Instances that can sign users in (OAuth credentials configured). */
  signInCapable(): ForgeInstanceConfig[] {
    return this.all().filter((forge) => forge.clientId && forge.clientSecret);
  }

  /** Brings the list up to date when the stored version moved (one primary-key lookup otherwise). */
  async refresh(): Promise<void> {
    const version = await this.stored.version();
    if (version !== this.loadedVersion) await this.reload();
  }

  /** After a change through this server: reload now, and tell the others. */
  async changed(): Promise<void> {
    try {
      await this.reload();
    } finally {
      // The change is committed: the others reload from the database whether or not this one could.
      await this.channel.announce();
    }
  }

  /** Loads the stored list; a load that has not started yet is shared, one already running is not. */
  private reload(): Promise<void> {
    if (this.waiting) return this.waiting;
    const next = this.tail.then(() => {
      this.waiting = null;
      return this.load();
    });
    this.waiting = next;
    this.tail = next.catch(() => undefined);
    return next;
  }

  private async load(): Promise<void> {
    const { version, rows } = await this.stored.load();
    this.live = this.compose(rows, version);
    this.loadedVersion = version;
    if (this.failing) this.logger.log('the stored forge instances are readable again');
    this.failing = false;
  }

  /** One line when loading starts failing (the database is down), not one every interval. */
  private reportFailure(error: Error): void {
    if (!this.failing) this.logger.warn(`reading the stored forge instances failed (configured ones still work): ${error.message}`);
    this.failing = true;
  }

  private compose(rows: readonly StoredForgeRow[], version = ''): LiveForge[] {
    return composeForges(this.config.forges, rows, {
      openSecret: (row) => openClientSecret(this.config.keyEncryptionKey, row.name, row.clientSecretSealed),
      warn: (key, line) => this.warnOnce(`${key}@${version}`, line),
    });
  }

  private warnOnce(key: string, line: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.logger.warn(line);
  }
}
