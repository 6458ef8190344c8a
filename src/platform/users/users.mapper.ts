import type { UserDto } from './dto/user.dto';
import type { UserEntity } from './entities/user.entity';

export function toUserDto(user: UserEntity): UserDto {
  return {
    id: user.id,
    login: user.login,
    instance: user.instance,
    email: user.email,
    avatarUrl: user.avatarUrl,
    role: user.role,
    createdAt: user.createdAt.getTime(),
  };
}
