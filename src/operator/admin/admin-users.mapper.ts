import type { UserEntity } from '../../platform/users/entities/user.entity';
import type { AdminUserDto } from './dto/admin-users.dto';

export function toAdminUserDto(user: UserEntity): AdminUserDto {
  return {
    id: user.id,
    login: user.login,
    instance: user.instance,
    email: user.email,
    avatarUrl: user.avatarUrl,
    role: user.role,
    disabled: user.disabledAt !== null,
    disabledAt: user.disabledAt?.getTime() ?? null,
    createdAt: user.createdAt.getTime(),
  };
}
