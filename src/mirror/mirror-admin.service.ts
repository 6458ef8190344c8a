import { Injectable } from '@nestjs/common';
import type { MirrorStatusDto } from './dto/mirror-status.dto';
import { toMirrorStatusDto } from './mirror.mapper';
import { MirrorService } from './mirror.service';

/** What GET /api/admin/mirror answers. */
@Injectable()
export class MirrorAdminService {
  constructor(private readonly mirror: MirrorService) {}

  async status(): Promise<MirrorStatusDto> {
    return toMirrorStatusDto(await this.mirror.status());
  }
}
