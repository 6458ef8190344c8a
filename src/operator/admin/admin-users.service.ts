import { Injectable } from '@nestjs/common';
import { isUuid } from '../../common/validation/uuid';
import type { EntityManager } from 'typeorm';
import { AuditService } from '../../platform/audit/audit.service';
import type { AuthContext } from '../../platform/auth/auth-context';
import { Clock } from '../../common/clock';
import { conflict, notFound } from '../../common/errors/domain-error';
import type { UserEntity } from '../../platform/users/entities/user.entity';
import { type UserAccessChange, UsersRepository } from '../../platform/users/users.repository';
import type { AdminUserDto, AdminUserPageDto, UpdateUserDto, UserListQueryDto } from './dto/admin-users.dto';
import { toAdminUserDto } from './admin-users.mapper';

const isEnabledAdmin = (role: string, disabled: boolean) => role === 'admin' && !disabled;

/** Users and roles for admins: list, promote or demote, disable or enable. */
@Injectable()
export class AdminUsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  async list(query: UserListQueryDto): Promise<AdminUserPageDto> {
    const page = query.page ?? 1;
    const limit = query.limit ?? 20;
    const { users, total } = await this.users.page({ search: query.search, role: query.role }, page, limit);
    return { users: users.map(toAdminUserDto), page, limit, total };
  }

  /**
   * Changes a user's role or disabled state. A disabled user's sessions and publisher tokens are
   * refused from the next request on (both are checked against the user row on every use). The
   * registry always keeps one enabled admin: the change that would remove the last one is a 409.
   */
  async update(auth: AuthContext, id: string, input: UpdateUserDto, ip: string | null): Promise<AdminUserDto> {
    if (!isUuid(id)) throw notFound('no such user');
    const user = await this.users.inAccessChangeTransaction(async (manager) => {
      const current = await this.users.findById(id, manager);
      if (!current) throw notFound('no such user');
      const wasDisabled = current.disabledAt !== null;
      const role = input.role ?? current.role;
      const disabled = input.disabled ?? wasDisabled;
      const change: UserAccessChange = {};
      if (role !== current.role) change.role = role;
      if (disabled !== wasDisabled) change.disabledAt = disabled ? this.clock.now() : null;
      if (Object.keys(change).length === 0) return current;

      if (
        isEnabledAdmin(current.role, wasDisabled) &&
        !isEnabledAdmin(role, disabled) &&
        (await this.users.countEnabledAdminsExcept(current.id, manager)) === 0
      ) {
        const who = current.id === auth.user.id ? 'you are' : `${current.login} is`;
        throw conflict('last-admin', `${who} the last enabled admin: make another user an admin first`);
      }
      const updated = await this.users.updateAccess(current.id, change, manager);
      await this.auditChange(auth, ip, current, change, manager);
      return updated;
    });
    return toAdminUserDto(user);
  }

  private async auditChange(
    auth: AuthContext,
    ip: string | null,
    before: UserEntity,
    change: UserAccessChange,
    manager: EntityManager,
  ): Promise<void> {
    const actor = { userId: auth.user.id, ip };
    const subject = { userId: before.id, login: before.login, instance: before.instance };
    if (change.role !== undefined) {
      await this.audit.record(
        { action: 'user.role_change', actor, details: { ...subject, before: { role: before.role }, after: { role: change.role } } },
        manager,
      );
    }
    if (change.disabledAt !== undefined) {
      await this.audit.record({ action: change.disabledAt ? 'user.disable' : 'user.enable', actor, details: subject }, manager);
    }
  }
}
