import { Injectable } from '@nestjs/common';
import type { AuthContext } from '../auth/auth-context';
import type { KeyRotationDto, SigningKeyListDto } from '../integrity/dto/signing-key.dto';
import { toKeyRotationDto, toSigningKeyListDto } from '../integrity/integrity.mapper';
import { KeysService } from '../integrity/keys.service';

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
