import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AuditActor } from '../audit/audit.service';
import { AuditService } from '../audit/audit.service';
import type { AuthContext } from '../auth/auth-context';
import { badRequest, conflict, DomainError, forbidden, notFound } from '../common/errors/domain-error';
import { ForgeRegistry } from '../forges/forge-registry';
import { parseRepoUrl } from '../lib/forge';
import { ScopeSet, type SlugOwnership } from '../lib/scopes/scopes';
import type { PluginEntity } from '../plugins/entities/plugin.entity';
import { PluginsRepository } from '../plugins/plugins.repository';
import { ReleasesRepository } from '../plugins/releases.repository';
import { versionKey } from '../plugins/versions';
import type { PublishDto, PublishResultDto, YankDto, YankResultDto } from './dto/publish.dto';
import { IngestService } from './ingest.service';
import { PUSH_AUDIT_BY_KIND } from './push-audit';

type TokenAuth = AuthContext & { kind: 'token' };

/** CI pushes and yanks with a publisher token. */
@Injectable()
export class PublishService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly plugins: PluginsRepository,
    private readonly releases: ReleasesRepository,
    private readonly ingest: IngestService,
    private readonly audit: AuditService,
    private readonly forges: ForgeRegistry,
  ) {}

  private actor(auth: TokenAuth, ip: string | null): AuditActor {
    return { userId: auth.user.id, tokenId: auth.token.id, ip };
  }

  private async ownership(plugin: PluginEntity | null, userId: string): Promise<SlugOwnership> {
    if (!plugin) return 'unclaimed';
    return (await this.plugins.isOwner(plugin.id, userId)) ? 'owned' : 'other';
  }

  /** Audits a failed push as the spec's table says, then lets the failure answer. */
  private async audited<T>(slug: string, actor: AuditActor, details: Record<string, unknown>, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      const action = error instanceof DomainError ? PUSH_AUDIT_BY_KIND[error.kind] : undefined;
      if (action) {
        await this.audit.record({ action, actor, slug, details: { ...details, code: (error as DomainError).code, detail: (error as DomainError).detail } });
      }
      throw error;
    }
  }

  async publish(auth: TokenAuth, slug: string, body: PublishDto, ip: string | null): Promise<PublishResultDto> {
    const actor = this.actor(auth, ip);
    const plugin = await this.plugins.findBySlug(slug);
    const ownership = await this.ownership(plugin, auth.user.id);
    return this.audited(slug, actor, { version: body.version, operation: 'publish' }, async () => {
      if (!ScopeSet.fromStrings(auth.token.scopes).permits('publish', slug, ownership)) {
        throw forbidden(
          ownership === 'other'
            ? `"${slug}" belongs to someone else`
            : ownership === 'unclaimed'
              ? `claiming the new slug "${slug}" needs a publish:* token`
              : `this token's scopes do not permit publishing "${slug}"`,
        );
      }
      let target: Parameters<IngestService['ingest']>[0]['target'];
      if (plugin) {
        target = { plugin };
      } else {
        if (!body.repoUrl) {
          throw badRequest('validation-failed', 'the first push of a slug needs repoUrl', [{ path: '/repoUrl', message: 'repoUrl: is required on the first push' }]);
        }
        const repo = parseRepoUrl(body.repoUrl, { forges: this.forges.all() });
        if (!repo.ok) throw badRequest('validation-failed', 'repoUrl is not a repository URL', [{ path: '/repoUrl', message: `repoUrl: ${repo.message}` }]);
        if (await this.plugins.findByRepoIdentity(repo.identity)) {
          throw conflict('repo-claimed', 'this repository is already claimed by another slug');
        }
        target = { claim: { repoUrl: repo.url.toString(), repoIdentity: repo.identity, ownerId: auth.user.id } };
      }
      return this.ingest.ingest({
        slug,
        version: body.version,
        manifestText: body.manifest,
        manifestFileName: body.manifestSource,
        assets: body.assets,
        attestation: body.attestation ?? null,
        source: 'push',
        actor,
        target,
      });
    });
  }

  async yank(auth: TokenAuth, slug: string, body: YankDto, ip: string | null): Promise<YankResultDto> {
    const actor = this.actor(auth, ip);
    const plugin = await this.plugins.findBySlug(slug);
    const ownership = await this.ownership(plugin, auth.user.id);
    return this.audited(slug, actor, { version: body.version, operation: body.undo ? 'unyank' : 'yank' }, async () => {
      if (!plugin) throw notFound(`no plugin "${slug}"`);
      if (!ScopeSet.fromStrings(auth.token.scopes).permits('yank', slug, ownership)) {
        throw forbidden(`this token's scopes do not permit yanking releases of "${slug}"`);
      }
      const release = await this.releases.findByVersionKey(plugin.id, versionKey(body.version));
      if (!release) throw notFound(`no release ${body.version} of "${slug}"`);
      const yank = !body.undo;
      await this.dataSource.transaction(async (manager) => {
        await this.releases.setYanked(release.id, yank ? new Date() : null, yank ? (body.reason ?? null) : null, manager);
        await this.plugins.updateCatalogue(plugin.id, { latestVersion: await this.ingest.latestVersion(plugin.id, manager) }, manager);
        await this.audit.record(
          { action: yank ? 'plugin.yank' : 'plugin.unyank', actor, slug, details: { version: release.version, reason: body.reason ?? null } },
          manager,
        );
      });
      return { slug, version: release.version, yanked: yank };
    });
  }
}
