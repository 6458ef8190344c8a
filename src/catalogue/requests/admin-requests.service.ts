import { Injectable } from '@nestjs/common';
import { AuditService } from '../../platform/audit/audit.service';
import type { AuthContext } from '../../platform/auth/auth-context';
import { badRequest, notFound } from '../../common/errors/domain-error';
import { PluginsRepository } from '../plugins/plugins.repository';
import type { RequestDto, UpdateRequestDto } from './dto/request.dto';
import { RequestsRepository } from './requests.repository';
import { RequestsService } from './requests.service';

/** Admins settle requests: fulfilled by a plugin, closed, or opened again. */
@Injectable()
export class AdminRequestsService {
  constructor(
    private readonly requests: RequestsRepository,
    private readonly reader: RequestsService,
    private readonly plugins: PluginsRepository,
    private readonly audit: AuditService,
  ) {}

  async update(auth: AuthContext, id: string, input: UpdateRequestDto, ip: string | null): Promise<RequestDto> {
    const { id: requestId } = await this.reader.view(id, null);
    const plugin = await this.fulfillingPlugin(input);
    await this.requests.withRequestLocked(requestId, async (locked, manager) => {
      const request = locked && (await this.requests.findWithPlugin(locked.id, manager));
      if (!request) throw notFound('no such request');
      const before = { status: request.status, plugin: request.plugin?.slug ?? null };
      const after = { status: input.status, plugin: plugin?.slug ?? null };
      await this.requests.setStatus(request.id, input.status, plugin?.id ?? null, manager);
      await this.audit.record(
        {
          action: 'request.update',
          actor: { userId: auth.user.id, ip },
          slug: after.plugin ?? before.plugin,
          details: { requestId: request.id, title: request.title, before, after },
        },
        manager,
      );
    });
    return this.reader.view(id, auth);
  }

  /** `fulfilled` names the plugin that fulfils it; `open` and `closed` name none. */
  private async fulfillingPlugin(input: UpdateRequestDto): Promise<{ id: string; slug: string } | null> {
    const slug = input.plugin ?? null;
    if (input.status !== 'fulfilled') {
      if (slug !== null)
        throw badRequest('validation-failed', 'only a fulfilled request names a plugin', [
          { path: '/plugin', message: `plugin: only with status "fulfilled"` },
        ]);
      return null;
    }
    if (slug === null)
      throw badRequest('validation-failed', 'a fulfilled request names its plugin', [
        { path: '/plugin', message: 'plugin: is required with status "fulfilled"' },
      ]);
    const plugin = await this.plugins.findBySlug(slug);
    if (!plugin)
      throw badRequest('validation-failed', 'no plugin has that slug', [
        { path: '/plugin', message: `plugin: no plugin has the slug ${JSON.stringify(slug)}` },
      ]);
    return { id: plugin.id, slug: plugin.slug };
  }
}
