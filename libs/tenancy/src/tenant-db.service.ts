import { Injectable } from '@nestjs/common';
import { MissingTenantContextError } from '@cairn/common';
import { PreparedStatements } from '@cairn/db';
import { type EntityManager, type EntityTarget, type ObjectLiteral, type Repository } from 'typeorm';
import { tenantScopes } from './tenant-scope';

/**
 * What tenant-scoped repositories use to reach the database. Outside a tenant
 * transaction every call throws, so no query can run against the wrong schema.
 */
@Injectable()
export class TenantDb {
  constructor(private readonly prepared: PreparedStatements) {}

  manager(): EntityManager {
    const store = tenantScopes.getStore();
    if (!store?.manager) throw new MissingTenantContextError('tenant repository access');
    return store.manager;
  }

  repository<T extends ObjectLiteral>(entity: EntityTarget<T>): Repository<T> {
    return this.manager().getRepository(entity);
  }

  query<T = unknown>(sql: string, parameters?: unknown[]): Promise<T[]> {
    return this.manager().query<T[]>(sql, parameters);
  }

  /**
   * `query` as a named prepared statement on the transaction's connection: PostgreSQL parses
   * and plans the text once per connection and then reuses the plan. For hot statements whose
   * text depends only on their shape (every value a parameter): the ranking statement spends
   * more time being parsed and planned than some of its executions take. PostgreSQL re-parses
   * a prepared statement whose search path differs from its last use, so a connection that
   * serves tenant after tenant stays correct (tested); the saving then comes from consecutive
   * calls for the same tenant on a connection. Behind a transaction pooler (named statements
   * off) it is a plain query.
   */
  queryPrepared<T = unknown>(sql: string, parameters: readonly unknown[]): Promise<T[]> {
    return this.prepared.queryIn<T>(this.manager(), sql, parameters);
  }
}
