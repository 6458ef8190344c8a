import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AuditActor } from '../../platform/audit/audit.service';
import type { SessionAuthContext } from '../../platform/auth/auth-context';
import { AuditService } from '../../platform/audit/audit.service';
import { Clock } from '../../common/clock';
import { badRequest, forbidden, notFound } from '../../common/errors/domain-error';
import { ForgeRegistry } from '../../platform/forges/forge-registry';
import { IngestAudit } from '../ingest/ingest-audit';
import { IngestGate } from '../ingest/ingest-gate';
import { IngestService } from '../ingest/ingest.service';
import { PluginClaims } from '../ingest/plugin-claims';
import { PublisherRights } from '../ingest/publisher-rights';
import type { ClaimFollowUp, IngestTarget, Publisher } from '../ingest/ingest.types';
import { parseRepoUrl } from '../../platform/forges/urls';
import { ScopeSet, type SlugOwnership } from '../../lib/scopes/scopes';
import { CatalogueListing } from '../../catalogue/plugins/catalogue-listing';
import type { PluginEntity } from '../../catalogue/plugins/entities/plugin.entity';
import type { PublishedBy } from '../../catalogue/plugins/entities/release.entity';
import { PluginsRepository } from '../../catalogue/plugins/plugins.repository';
import { ReleasesRepository } from '../../catalogue/plugins/releases.repository';
import { ResponseCache } from '../../platform/response-cache/response-cache';
import { versionKey } from '../../catalogue/plugins/versions';
import { RepositoryAccess } from '../repository-access/repository-access';
import type { PublisherTokenContext } from '../../accounts/tokens/publisher-token-context';
import { PendingClaims, pendingClaimOf } from '../trusted-publishing/pending-claims';
import { TransparencyLog } from '../../trust/transparency-log/transparency-log';
import type { PublishDto, PublishResultDto, YankDto, YankResultDto } from './dto/publish.dto';

function denial(slug: string, ownership: SlugOwnership): string {
  if (ownership === 'other') return `"${slug}" belongs to someone else`;
  if (ownership === 'unclaimed') return `claiming the new slug "${slug}" needs a publish:* token`;
  return `this token's scopes do not permit publishing "${slug}"`;
}

/** What the release says about who published it: the CI job a trusted token was minted for, or a token. */
function publishedBy(auth: PublisherTokenContext): PublishedBy {
  const trusted = auth.token.trusted;
  if (!trusted) return { kind: 'token' };
  return { kind: 'trusted', forge: trusted.forge, repository: trusted.repository, workflow: trusted.workflow, ref: trusted.ref };
}

/** CI pushes and yanks with a publisher token: scopes, ownership and the claim rules. */
@Injectable()
export class PublishService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly plugins: PluginsRepository,
    private readonly releases: ReleasesRepository,
    private readonly listing: CatalogueListing,
    private readonly ingest: IngestService,
    private readonly ingestAudit: IngestAudit,
    private readonly audit: AuditService,
    private readonly forges: ForgeRegistry,
    private readonly repositoryAccess: RepositoryAccess,
    private readonly rights: PublisherRights,
    private readonly claims: PluginClaims,
    private readonly pendingClaims: PendingClaims,
    private readonly clock: Clock,
    private readonly gate: IngestGate,
    private readonly log: TransparencyLog,
    private readonly responses: ResponseCache,
  ) {}

  private actor(auth: PublisherTokenContext, ip: string | null): AuditActor {
    return { userId: auth.user.id, tokenId: auth.token.id, ip };
  }

  private async ownership(plugin: PluginEntity | null, userId: string): Promise<SlugOwnership> {
    if (!plugin) return 'unclaimed';
    return (await this.plugins.isOwner(plugin.id, userId)) ? 'owned' : 'other';
  }

  /** `clientGone`: the push's client disconnected; its ingest is abandoned, recording nothing. */
  async publish(
    auth: PublisherTokenContext,
    slug: string,
    body: PublishDto,
    ip: string | null,
    clientGone?: AbortSignal,
  ): Promise<PublishResultDto> {
    const actor = this.actor(auth, ip);
    const plugin = await this.plugins.findBySlug(slug);
    const ownership = await this.ownership(plugin, auth.user.id);
    // A push refused for want of a slot is not an ingest failure: it is neither run nor audited.
    return this.gate.run(auth.user.id, () => this.audited(auth, slug, body, actor, plugin, ownership, clientGone));
  }

  private audited(
    auth: PublisherTokenContext,
    slug: string,
    body: PublishDto,
    actor: AuditActor,
    plugin: PluginEntity | null,
    ownership: SlugOwnership,
    clientGone: AbortSignal | undefined,
  ): Promise<PublishResultDto> {
    return this.ingestAudit.audited('push', slug, actor, { version: body.version, operation: 'publish' }, async () => {
      // A token minted from a pending publisher claims that one new slug (trusted publishing).
      const pending = ownership === 'unclaimed' && pendingClaimOf(auth.token, slug) !== null;
      if (!pending && !ScopeSet.fromStrings(auth.token.scopes).permits('publish', slug, ownership))
        throw forbidden(denial(slug, ownership));
      let target: IngestTarget;
      let onClaim: ClaimFollowUp | undefined;
      if (plugin) target = { pluginId: plugin.id };
      else if (pending) ({ target, onClaim } = await this.pendingClaims.target(auth.token, slug, actor));
      else target = await this.claimTarget(auth, slug, body);
      return this.ingest.ingest({
        slug,
        version: body.version,
        manifestText: body.manifest,
        manifestFileName: body.manifestSource,
        assets: body.assets,
        attestation: body.attestation ?? null,
        source: 'push',
        actor,
        publisher: { userId: auth.user.id, tokenId: auth.token.id },
        target,
        onClaim,
        publishedBy: publishedBy(auth),
        abandon: clientGone,
      });
    });
  }

  /**
   * The first push of a slug claims it for the token's owner, anchored to `repoUrl`. A repository
   * already claimed by this very slug (another push of the same CI matrix won the race a moment
   * ago) makes this an ordinary update.
   */
  private async claimTarget(auth: PublisherTokenContext, slug: string, body: PublishDto): Promise<IngestTarget> {
    if (!body.repoUrl) {
      throw badRequest('validation-failed', 'the first push of a slug needs repoUrl', [
        { path: '/repoUrl', message: 'repoUrl: is required on the first push' },
      ]);
    }
    const repo = parseRepoUrl(body.repoUrl, { forges: this.forges.all() });
    if (!repo.ok)
      throw badRequest('validation-failed', 'repoUrl is not a repository URL', [{ path: '/repoUrl', message: `repoUrl: ${repo.message}` }]);
    const anchored = await this.claims.existingAnchor(repo.identity, slug, auth.user.id);
    if (anchored) return { pluginId: anchored.id };
    const repoUrl = repo.url.toString();
    const repoVerified = await this.repositoryAccess.verifyClaim(auth.user.id, repoUrl);
    return { claim: { repoUrl, repoIdentity: repo.identity, repoVerified, ownerId: auth.user.id } };
  }

  async yank(auth: PublisherTokenContext, slug: string, body: YankDto, ip: string | null): Promise<YankResultDto> {
    const actor = this.actor(auth, ip);
    const plugin = await this.plugins.findBySlug(slug);
    const ownership = await this.ownership(plugin, auth.user.id);
    return this.ingestAudit.audited('yank', slug, actor, { version: body.version, operation: body.undo ? 'unyank' : 'yank' }, async () => {
      if (!plugin) throw notFound(`no plugin "${slug}"`);
      if (!ScopeSet.fromStrings(auth.token.scopes).permits('yank', slug, ownership)) {
        throw forbidden(`this token's scopes do not permit yanking releases of "${slug}"`);
      }
      return this.applyYank(plugin, body, actor, { userId: auth.user.id, tokenId: auth.token.id });
    });
  }

  /** The same yank for an owner signed in on the web (no token, so no scopes): owning the plugin is the right. */
  async yankAsOwner(auth: SessionAuthContext, slug: string, body: YankDto, ip: string | null): Promise<YankResultDto> {
    const actor: AuditActor = { userId: auth.user.id, ip };
    const plugin = await this.plugins.findBySlug(slug);
    const ownership = await this.ownership(plugin, auth.user.id);
    return this.ingestAudit.audited('yank', slug, actor, { version: body.version, operation: body.undo ? 'unyank' : 'yank' }, async () => {
      if (!plugin) throw notFound(`no plugin "${slug}"`);
      if (ownership !== 'owned') throw forbidden(`only an owner of "${slug}" may yank its releases`);
      return this.applyYank(plugin, body, actor, { userId: auth.user.id, tokenId: null });
    });
  }

  private async applyYank(plugin: PluginEntity, body: YankDto, actor: AuditActor, publisher: Publisher): Promise<YankResultDto> {
    const release = await this.releases.findByVersionKey(plugin.id, versionKey(body.version));
    if (!release) throw notFound(`no release ${body.version} of "${plugin.slug}"`);
    const yank = !body.undo;
    // No answer from before the yank once it may be visible (ResponseCache.writing).
    await this.responses.writing(() =>
      this.dataSource.transaction(async (manager) => {
        await this.rights.assertStillAllowed(publisher, plugin.id, manager);
        await this.releases.setYanked(release.id, yank ? this.clock.now() : null, yank ? (body.reason ?? null) : null, manager);
        await this.listing.recompute(plugin.id, manager);
        await this.audit.record(
          {
            action: yank ? 'plugin.yank' : 'plugin.unyank',
            actor,
            slug: plugin.slug,
            details: { version: release.version, reason: body.reason ?? null },
          },
          manager,
        );
        // Last: the log's tail lock is held to commit (the plugin's row, written after it, is locked already).
        const index = await this.log.append({ type: yank ? 'yank' : 'unyank', slug: plugin.slug, version: release.version }, manager);
        await this.plugins.advanceLogSize(plugin.id, index, manager);
      }),
    );
    return { slug: plugin.slug, version: release.version, yanked: yank };
  }
}
