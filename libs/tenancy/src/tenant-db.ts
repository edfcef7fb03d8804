import { Injectable } from '@nestjs/common';
import { MissingTenantContextError } from '@cairn/common';
import { type EntityManager, type EntityTarget, type ObjectLiteral, type Repository } from 'typeorm';
import { TenantContext } from './tenant-context';

/**
 * What tenant-scoped repositories use to reach the database. Outside a tenant
 * transaction every call throws, so no query can run against the wrong schema.
 */
@Injectable()
export class TenantDb {
  constructor(private readonly context: TenantContext) {}

  manager(): EntityManager {
    const store = this.context.store();
    if (!store?.manager) throw new MissingTenantContextError('tenant repository access');
    return store.manager;
  }

  repository<T extends ObjectLiteral>(entity: EntityTarget<T>): Repository<T> {
    return this.manager().getRepository(entity);
  }

  query<T = unknown>(sql: string, parameters?: unknown[]): Promise<T[]> {
    return this.manager().query<T[]>(sql, parameters);
  }
}
