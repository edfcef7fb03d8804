import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { NotFoundError } from '@cairn/common';
import { type DataSource } from 'typeorm';
import { TenantContext } from './tenant-context.service';
import { tenantSearchPath } from './tenant-ref';
import { tenantScopes } from './tenant-scope';

/**
 * Runs a unit of work in one transaction on the shared pool with the tenant's
 * search_path set transaction-locally (`set_config(..., true)`), so a pooled connection
 * never carries one tenant's path into another tenant's work. Nested calls join.
 */
@Injectable()
export class TenantTransaction {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly context: TenantContext,
  ) {}

  /**
   * `settings` are further transaction-local GUCs (e.g. pgvector's `hnsw.iterative_scan`),
   * set in the same round trip as the search path. A nested call joins the outer
   * transaction; its settings are then applied with one extra statement.
   */
  async run<T>(work: () => Promise<T>, settings: Readonly<Record<string, string>> = {}): Promise<T> {
    const tenant = this.context.require('TenantTransaction.run');
    const extra = Object.entries(settings);
    const current = tenantScopes.getStore()?.manager;
    if (current) {
      if (extra.length > 0) await current.query(setConfigSql(extra.length), extra.flat());
      return work();
    }
    const afterCommit: (() => Promise<void>)[] = [];
    let result: T;
    try {
      result = await this.dataSource.transaction(async (manager) => {
        const all: [string, string][] = [['search_path', tenantSearchPath(tenant.schema)], ...extra];
        await manager.query(setConfigSql(all.length), all.flat());
        const outer = tenantScopes.getStore();
        // The transaction's connection joins the tenant's scope for everything `work` awaits.
        return tenantScopes.run({ ...outer, tenant, manager, afterCommit }, async () => {
          const value = await work();
          // In this transaction, on its connection: committed with the work or rolled back with it.
          await outer?.beforeCommit?.();
          return value;
        });
      });
    } catch (error) {
      // The tenant was deleted (its schema dropped) after this request resolved it: a 404 like
      // any request that arrives a moment later, not a 500. A table missing from a schema that
      // still exists stays the bug it is.
      if (NAMES_GONE.has(errorCode(error) ?? '') && !(await this.schemaExists(tenant.schema))) {
        throw new NotFoundError('Tenant');
      }
      throw error;
    }
    for (const step of afterCommit) await step();
    return result;
  }

  private async schemaExists(schema: string): Promise<boolean> {
    const rows = await this.dataSource.query<unknown[]>(`SELECT 1 FROM pg_namespace WHERE nspname = $1`, [schema]);
    return rows.length > 0;
  }

  /**
   * Runs `step` once the outermost transaction has committed, so a job never looks for rows
   * that do not exist yet (or never will, after a rollback). Must be called inside `run`.
   */
  onCommit(step: () => Promise<void>): void {
    const queue = tenantScopes.getStore()?.afterCommit;
    if (!queue) throw new Error('TenantTransaction.onCommit called outside a tenant transaction');
    queue.push(step);
  }
}

/** PostgreSQL: undefined_table, invalid_schema_name. */
const NAMES_GONE = new Set(['42P01', '3F000']);

function errorCode(error: unknown): string | undefined {
  const { code, driverError } = (error ?? {}) as { code?: unknown; driverError?: { code?: unknown } };
  const found = driverError?.code ?? code;
  return typeof found === 'string' ? found : undefined;
}

/** `SELECT set_config($1, $2, true), set_config($3, $4, true), …` for `count` settings. */
function setConfigSql(count: number): string {
  const calls = Array.from({ length: count }, (_, i) => `set_config($${i * 2 + 1}, $${i * 2 + 2}, true)`);
  return `SELECT ${calls.join(', ')}`;
}
