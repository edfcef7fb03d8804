import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type Role } from '@cairn/access';
import { SNAPSHOT_EXAMPLE as EX, type SqlRunner, SqlSnapshot } from '@cairn/db';
import { type Repository } from 'typeorm';
import { UserEntity } from './user.entity';

const UNIQUE_VIOLATION = '23505';

export class DuplicateEmailError extends Error {}

/** Users live in the control schema; every query is bounded by tenant id. */
@Injectable()
export class UsersRepository {
  constructor(@InjectRepository(UserEntity) private readonly users: Repository<UserEntity>) {}

  @SqlSnapshot({
    params: [{ id: EX.newUserId, tenantId: EX.tenantId, email: 'grace@example.com', name: 'Grace', role: 'member' }],
  })
  async insert(user: Pick<UserEntity, 'id' | 'tenantId' | 'email' | 'name' | 'role'>): Promise<UserEntity> {
    try {
      await this.users.insert({ ...user, disabledAt: null });
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw new DuplicateEmailError(user.email);
      throw error;
    }
    return this.users.findOneByOrFail({ id: user.id });
  }

  @SqlSnapshot({ params: [EX.tenantId, EX.userId] })
  findInTenant(tenantId: string, id: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ tenantId, id });
  }

  /** Emails are unique per tenant without regard to case (users_tenant_email). */
  @SqlSnapshot({ params: [EX.tenantId, EX.email] })
  findByEmailInTenant(tenantId: string, email: string): Promise<UserEntity | null> {
    return this.users
      .createQueryBuilder('u')
      .where('u.tenant_id = :tenantId', { tenantId })
      .andWhere('lower(u.email) = lower(:email)', { email })
      .getOne();
  }

  @SqlSnapshot(
    { name: 'first page', params: [EX.tenantId, 20] },
    { name: 'after a user', params: [EX.tenantId, 20, EX.userId] },
  )
  listInTenant(tenantId: string, limit: number, afterId?: string): Promise<UserEntity[]> {
    const query = this.users
      .createQueryBuilder('u')
      .where('u.tenant_id = :tenantId', { tenantId })
      .orderBy('u.created_at', 'ASC')
      .addOrderBy('u.id', 'ASC')
      .take(limit + 1);
    if (afterId) {
      query.andWhere('(u.created_at, u.id) > (SELECT c.created_at, c.id FROM cairn.users c WHERE c.id = :afterId)', {
        afterId,
      });
    }
    return query.getMany();
  }

  @SqlSnapshot({ params: [EX.tenantId, EX.userId, { name: 'Ada L.', role: 'admin', disabled: true }] })
  async update(
    tenantId: string,
    id: string,
    changes: { name?: string; role?: Role; disabled?: boolean },
  ): Promise<UserEntity | null> {
    const patch: Partial<UserEntity> = {};
    if (changes.name !== undefined) patch.name = changes.name;
    if (changes.role !== undefined) patch.role = changes.role;
    if (changes.disabled !== undefined) patch.disabledAt = changes.disabled ? new Date() : null;
    const result = await this.users.update({ tenantId, id }, patch);
    if (!result.affected) return null;
    return this.users.findOneBy({ tenantId, id });
  }

  /** Every enabled user of the tenant disabled, on `sql` (the transaction deleting the tenant); how many. */
  @SqlSnapshot({ params: [EX.tenantId, EX.sqlRunner] })
  async disableAllOfTenant(tenantId: string, sql: SqlRunner): Promise<number> {
    const rows = (await sql(
      `WITH disabled AS (UPDATE cairn.users SET disabled_at = now() WHERE tenant_id = $1 AND disabled_at IS NULL
       RETURNING 1) SELECT count(*)::int AS n FROM disabled`,
      [tenantId],
    )) as { n: number }[];
    return rows[0]?.n ?? 0;
  }
}
