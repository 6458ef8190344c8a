import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { AuthContext } from '../auth/auth-context';
import { type AuditActor, AuditService } from '../audit/audit.service';
import { Clock } from '../common/clock';
import { DomainError, forbidden, invalid, notFound } from '../common/errors/domain-error';
import { toCatalogueItemDto } from './catalogue.mapper';
import type { DeprecatePluginDto, DeprecationStateDto } from './dto/deprecation.dto';
import type { PluginEntity } from './entities/plugin.entity';
import { PluginsRepository } from './plugins.repository';

/** Who asks: a signed-in user (an owner, or an admin), from an address. */
export interface DeprecationCaller {
  userId: string;
  admin: boolean;
  ip: string | null;
}

export function deprecationCaller(auth: AuthContext, ip: string | null): DeprecationCaller {
  return { userId: auth.user.id, admin: auth.user.role === 'admin', ip };
}

const replacementError = (message: string) => invalid('invalid-replacement', message, [{ path: '/replacement', message: `replacement: ${message}` }]);

/**
 * Deprecating a plugin and undoing it (issue 26): its owners or an admin, with a message and an
 * optional replacement. Each change runs in one transaction with the plugin's row locked and is
 * audited in it (`plugin.deprecate`, `plugin.undeprecate`, details `{message, replacement}`); a
 * caller who is neither owner nor admin is refused (403) and the refusal audited on its own, as a
 * yank's is (`plugin.deprecate_denied`).
 */
@Injectable()
export class DeprecationService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly plugins: PluginsRepository,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  deprecate(caller: DeprecationCaller, slug: string, input: DeprecatePluginDto): Promise<DeprecationStateDto> {
    const message = input.message;
    const replacement = input.replacement ?? null;
    return this.change(caller, slug, 'deprecate', { message, replacement }, async (plugin, manager, actor) => {
      await this.checkReplacement(plugin, replacement, manager);
      await this.plugins.setDeprecation(plugin.id, { at: plugin.deprecatedAt ?? this.clock.now(), message, replacement, by: caller.userId }, manager);
      await this.audit.record({ action: 'plugin.deprecate', actor, slug, details: { message, replacement } }, manager);
    });
  }

  undeprecate(caller: DeprecationCaller, slug: string): Promise<DeprecationStateDto> {
    return this.change(caller, slug, 'undeprecate', {}, async (plugin, manager, actor) => {
      // Undoing what is not there changes nothing and records nothing.
      if (!plugin.deprecatedAt) return;
      await this.plugins.setDeprecation(plugin.id, null, manager);
      await this.audit.record({ action: 'plugin.undeprecate', actor, slug, details: { message: plugin.deprecationMessage, replacement: plugin.deprecatedReplacement } }, manager);
    });
  }

  /** The replacement must be another existing plugin, and not one whose own replacement is this plugin. */
  private async checkReplacement(plugin: PluginEntity, replacement: string | null, manager: EntityManager): Promise<void> {
    if (replacement === null) return;
    if (replacement === plugin.slug) throw replacementError('must name another plugin, not this one');
    const target = await this.plugins.findBySlug(replacement, manager);
    if (!target) throw replacementError(`no plugin "${replacement}"`);
    if (target.deprecatedAt && target.deprecatedReplacement === plugin.slug) {
      throw replacementError(`"${replacement}" is deprecated in favour of "${plugin.slug}"; the two would point at each other`);
    }
  }

  /**
   * The change in one transaction with the plugin's row locked, ownership checked in it; a refusal
   * (403) is audited after the rollback, then rethrown.
   */
  private async change(
    caller: DeprecationCaller,
    slug: string,
    operation: 'deprecate' | 'undeprecate',
    details: Record<string, unknown>,
    work: (plugin: PluginEntity, manager: EntityManager, actor: AuditActor) => Promise<void>,
  ): Promise<DeprecationStateDto> {
    const actor: AuditActor = { userId: caller.userId, ip: caller.ip };
    try {
      await this.dataSource.transaction(async (manager) => {
        const plugin = await this.plugins.findBySlugForUpdate(slug, manager);
        if (!plugin) throw notFound(`no plugin "${slug}"`);
        if (!caller.admin && !(await this.plugins.isOwnerLocked(plugin.id, caller.userId, manager))) {
          throw forbidden(`only the owners of "${slug}" (or an admin) may ${operation} it`);
        }
        await work(plugin, manager, actor);
      });
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'forbidden') {
        await this.audit.record({ action: 'plugin.deprecate_denied', actor, slug, details: { ...details, operation, code: error.code, detail: error.detail } });
      }
      throw error;
    }
    const plugin = await this.plugins.findBySlug(slug);
    if (!plugin) throw notFound(`no plugin "${slug}"`);
    return { slug, deprecated: toCatalogueItemDto(plugin).deprecated };
  }
}
