import { Injectable } from '@nestjs/common';
import type { AuthContext } from './auth-context';
import { SessionService } from './session.service';
import { toUserDto } from '../users/users.mapper';
import type { UserDto } from '../users/dto/user.dto';

@Injectable()
export class AuthService {
  constructor(private readonly sessions: SessionService) {}

  me(auth: AuthContext): UserDto {
    return toUserDto(auth.user);
  }

  async logout(auth: AuthContext): Promise<void> {
    if (auth.kind === 'session') await this.sessions.logout(auth.sessionId);
  }
}
