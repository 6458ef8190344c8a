import { Injectable } from '@nestjs/common';
import type { AuthContext } from '../../platform/auth/auth-context';
import type { KeyRotationDto, SigningKeyListDto } from '../../trust/integrity/dto/signing-key.dto';
import { toKeyRotationDto, toSigningKeyListDto } from '../../trust/integrity/integrity.mapper';
import { KeysService } from '../../trust/integrity/keys.service';

@Injectable()
export class AdminKeysService {
  constructor(private readonly keys: KeysService) {}

  async list(): Promise<SigningKeyListDto> {
    return toSigningKeyListDto(await this.keys.list());
  }

  async rotate(auth: AuthContext, ip: string | null): Promise<KeyRotationDto> {
    return toKeyRotationDto(await this.keys.rotate({ userId: auth.user.id, ip }));
  }
}
