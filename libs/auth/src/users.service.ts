import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { type Role } from '@cairn/access';
import { ConflictError, NotFoundError } from '@cairn/common';
import { type TenantRef } from '@cairn/tenancy';
import { AuthChangeListener } from './auth-change-listener.service';
import { type UserEntity } from './user.entity';
import { DuplicateEmailError, UsersRepository } from './users.repository';

export interface UserPage {
  readonly items: UserEntity[];
  readonly nextCursor: string | null;
}

/**
 * A tenant's human users. Disabling a user or lowering its role takes effect on the next
 * request on every replica: the change notice empties every replica's token cache at commit.
 */
@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly changes: AuthChangeListener,
  ) {}

  async create(tenant: TenantRef, input: { email: string; name: string; role: Role }): Promise<UserEntity> {
    try {
      return await this.users.insert({ id: randomUUID(), tenantId: tenant.id, ...input });
    } catch (error) {
      if (error instanceof DuplicateEmailError) {
        throw new ConflictError(`A user with email "${input.email}" already exists in this tenant`, 'user_exists');
      }
      throw error;
    }
  }

  async list(tenant: TenantRef, limit: number, cursor?: string): Promise<UserPage> {
    const rows = await this.users.listInTenant(tenant.id, limit, cursor);
    const items = rows.slice(0, limit);
    const last = items[items.length - 1];
    return { items, nextCursor: rows.length > limit && last ? last.id : null };
  }

  async get(tenant: TenantRef, id: string): Promise<UserEntity> {
    const user = await this.users.findInTenant(tenant.id, id);
    if (!user) throw new NotFoundError('User');
    return user;
  }

  /** The tenant's user with this email (any case), or null: sign-in's lookup. */
  findByEmail(tenant: TenantRef, email: string): Promise<UserEntity | null> {
    return this.users.findByEmailInTenant(tenant.id, email);
  }

  async update(
    tenant: TenantRef,
    id: string,
    changes: { name?: string; role?: Role; disabled?: boolean },
  ): Promise<UserEntity> {
    const user = await this.users.update(tenant.id, id, changes);
    if (!user) throw new NotFoundError('User');
    this.changes.cache.forget({ kind: 'user', id });
    await this.changes.settle();
    return user;
  }
}
