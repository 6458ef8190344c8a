import { Injectable } from '@nestjs/common';
import { isUuid } from '../../common/validation/uuid';
import type { AuthContext } from '../../platform/auth/auth-context';
import { badRequest, conflict, notFound } from '../../common/errors/domain-error';
import { CatalogueReads } from '../../persistence/catalogue-reads';
import { KindsService } from '../kinds/kinds.service';
import type { CreateRequestDto, RequestDto, RequestPageDto, RequestQueryDto } from './dto/request.dto';
import type { PluginRequestEntity } from './entities/plugin-request.entity';
import { toRequestDto } from './requests.mapper';
import { RequestsRepository } from './requests.repository';

/** The wishlist: anyone reads it, signed-in users add requests and vote, one vote a user. */
@Injectable()
export class RequestsService {
  constructor(
    private readonly requests: RequestsRepository,
    private readonly kinds: KindsService,
    private readonly reads: CatalogueReads,
  ) {}

  async list(query: RequestQueryDto, viewer: AuthContext | null): Promise<RequestPageDto> {
    const page = query.page ?? 1;
    const limit = query.limit ?? 20;
    const pageQuery = { status: query.status, sort: query.sort ?? 'votes', page, limit } as const;
    // A signed-in viewer may just have voted: they read the primary; anyone else may read a replica.
    if (!viewer) {
      const { requests, total } = await this.reads.run((manager) => this.requests.page(pageQuery, manager));
      return { requests: requests.map((r) => toRequestDto(r, false)), page, limit, total };
    }
    const { requests, total } = await this.requests.page(pageQuery);
    const voted = await this.requests.votedBy(
      viewer.user.id,
      requests.map((r) => r.id),
    );
    return { requests: requests.map((r) => toRequestDto(r, voted.has(r.id))), page, limit, total };
  }

  async create(auth: AuthContext, input: CreateRequestDto): Promise<RequestDto> {
    if (input.kind !== undefined) await this.checkKind(input.kind);
    const request = await this.requests.insert({
      title: input.title,
      description: input.description ?? null,
      kind: input.kind ?? null,
      createdBy: auth.user.id,
    });
    return toRequestDto(request, false);
  }

  /** Idempotent: a second upvote by the same user changes nothing. Only open requests take votes. */
  async upvote(auth: AuthContext, id: string): Promise<RequestDto> {
    await this.requests.withRequestLocked(this.checkId(id), async (request, manager) => {
      const open = this.found(request);
      if (open.status !== 'open') throw conflict('request-not-open', `this request is ${open.status} and takes no more votes`);
      await this.requests.addVote(open.id, auth.user.id, manager);
    });
    return this.view(id, auth);
  }

  /** Idempotent: removing a vote that is not there changes nothing. */
  async removeUpvote(auth: AuthContext, id: string): Promise<RequestDto> {
    await this.requests.withRequestLocked(this.checkId(id), async (request, manager) => {
      await this.requests.removeVote(this.found(request).id, auth.user.id, manager);
    });
    return this.view(id, auth);
  }

  /** One request as `viewer` sees it. */
  async view(id: string, viewer: AuthContext | null): Promise<RequestDto> {
    const request = this.found(await this.requests.findWithPlugin(this.checkId(id)));
    const voted = viewer ? (await this.requests.votedBy(viewer.user.id, [request.id])).has(request.id) : false;
    return toRequestDto(request, voted);
  }

  private checkId(id: string): string {
    if (!isUuid(id)) throw notFound('no such request');
    return id;
  }

  private found(request: PluginRequestEntity | null): PluginRequestEntity {
    if (!request) throw notFound('no such request');
    return request;
  }

  private async checkKind(kind: string): Promise<void> {
    const enabled = await this.kinds.enabledKeys();
    if (!enabled.includes(kind)) {
      throw badRequest('validation-failed', "the kind is not one of this registry's kinds", [
        {
          path: '/kind',
          message: `kind: must be one of the enabled kinds${enabled.length ? ` (${enabled.join(', ')})` : ' (this registry has none)'}`,
        },
      ]);
    }
  }
}
