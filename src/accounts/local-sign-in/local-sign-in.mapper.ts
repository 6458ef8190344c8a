import type { PasskeyDto } from './dto/passkey.dto';
import type { PasskeyCredentialEntity } from './entities/passkey-credential.entity';

export function toPasskeyDto(passkey: PasskeyCredentialEntity): PasskeyDto {
  return {
    id: passkey.id,
    name: passkey.name,
    synced: passkey.deviceType === 'multiDevice' && passkey.backedUp,
    createdAt: passkey.createdAt.getTime(),
    lastUsedAt: passkey.lastUsedAt ? passkey.lastUsedAt.getTime() : null,
  };
}
