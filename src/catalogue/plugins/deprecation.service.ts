import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { AuthContext } from '../../platform/auth/auth-context';
import { type AuditActor, AuditService } from '../../platform/audit/audit.service';
import { Clock } from '../../common/clock';
import { DomainError, forbidden, invalid, notFound } from '../../common/errors/domain-error';
import type { DeprecationDto } from './dto/catalogue.dto';
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

const replacementError = (message: string) =>
  invalid('invalid-replacement', message, [{ path: '/replacement', message: `replacement: ${message}` }]);

/**
 * Deprecating a plugin and undoing it (docs/publishing-from-ci.md#deprecating-a-plugin): its owners
 * or an admin, with a message and an optional replacement. Each change runs in one transaction with
 * the plugin's row (and the replacement's) locked and is audited in it (`plugin.deprecate`,
 * `plugin.undeprecate`, details `{message, replacement}`); the answer is built from what was
 * written, in it. A caller who is neither owner nor admin is refused (403) and the refusal audited
 * on its own, as a yank's is (`plugin.deprecate_denied`); so is an owner changing a mark an admin
 * who does not own the plugin set (code `admin-deprecation`).
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
    return this.change(caller, slug, 'deprecate', { message, replacement }, replacement, async ({ plugin, target }, manager, actor) => {
      checkReplacement(plugin, replacement, target);
      const at = plugin.deprecatedAt ?? this.clock.now();
      await this.plugins.setDeprecation(plugin.id, { at, message, replacement, by: caller.userId }, manager);
      await this.audit.record({ action: 'plugin.deprecate', actor, slug, details: { message, replacement } }, manager);
      return { message, replacement, since: at.getTime() };
    });
  }

  undeprecate(caller: DeprecationCaller, slug: string): Promise<DeprecationStateDto> {
    return this.change(caller, slug, 'undeprecate', {}, null, async ({ plugin }, manager, actor) => {
      // Undoing what is not there changes nothing and records nothing.
      if (!plugin.deprecatedAt) return null;
      await this.plugins.setDeprecation(plugin.id, null, manager);
      await this.audit.record(
        {
          action: 'plugin.undeprecate',
          actor,
          slug,
          details: { message: plugin.deprecationMessage, replacement: plugin.deprecatedReplacement },
        },
        manager,
      );
      return null;
    });
  }

  /**
   * The change in one transaction with the plugin's row locked, and the replacement's with it (both
   * in slug order: two plugins deprecated for each other at once queue, and the second sees the
   * first's mark); who may is checked in it. A refusal (403) is audited after the rollback, then
   * rethrown.
   */
  private async change(
    caller: DeprecationCaller,
    slug: string,
    operation: 'deprecate' | 'undeprecate',
    details: Record<string, unknown>,
    replacement: string | null,
    work: (
      rows: { plugin: PluginEntity; target: PluginEntity | null },
      manager: EntityManager,
      actor: AuditActor,
    ) => Promise<DeprecationDto | null>,
  ): Promise<DeprecationStateDto> {
    const actor: AuditActor = { userId: caller.userId, ip: caller.ip };
    try {
      return await this.dataSource.transaction(async (manager) => {
        const rows = await this.plugins.findBySlugsForUpdate(replacement === null ? [slug] : [slug, replacement], manager);
        const plugin = rows.find((row) => row.slug === slug);
        if (!plugin) throw notFound(`no plugin "${slug}"`);
        await this.checkCaller(caller, plugin, operation, manager);
        const target = replacement === null || replacement === slug ? null : (rows.find((row) => row.slug === replacement) ?? null);
        return { slug: plugin.slug, deprecated: await work({ plugin, target }, manager, actor) };
      });
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'forbidden') {
        await this.audit.record({
          action: 'plugin.deprecate_denied',
          actor,
          slug,
          details: { ...details, operation, code: error.code, detail: error.detail },
        });
      }
      throw error;
    }
  }

  /** An owner or an admin; an owner may not change a mark an admin who is not an owner set. */
  private async checkCaller(caller: DeprecationCaller, plugin: PluginEntity, operation: string, manager: EntityManager): Promise<void> {
    if (caller.admin) return;
    if (!(await this.plugins.isOwnerLocked(plugin.id, caller.userId, manager))) {
      throw forbidden(`only the owners of "${plugin.slug}" (or an admin) may ${operation} it`);
    }
    if (plugin.deprecatedAt && plugin.deprecatedBy && (await this.plugins.isAdminNotOwner(plugin.id, plugin.deprecatedBy, manager))) {
      throw new DomainError(
        'forbidden',
        'admin-deprecation',
        `an admin deprecated "${plugin.slug}"; only an admin may ${operation} it now`,
      );
    }
  }
}

/** The replacement must be another existing plugin, and not one whose own replacement is this plugin. */
function checkReplacement(plugin: PluginEntity, replacement: string | null, target: PluginEntity | null): void {
  if (replacement === null) return;
  if (replacement === plugin.slug) throw replacementError('must name another plugin, not this one');
  if (!target) throw replacementError(`no plugin "${replacement}"`);
  if (target.deprecatedAt && target.deprecatedReplacement === plugin.slug) {
    throw replacementError(`"${replacement}" is deprecated in favour of "${plugin.slug}"; the two would point at each other`);
  }
}
