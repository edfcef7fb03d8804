import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@cairn/common';
import { errorCode, NAMES_GONE, TenantConnections } from './tenant-connections.repository';
import { TenantContext } from './tenant-context.service';
import { TenantTransactionSettingsRepository } from './tenant-transaction-settings.repository';
import { tenantSearchPath } from './tenant-ref';
import { tenantScopes } from './tenant-scope';

/**
 * Runs a unit of work in one transaction on the pool of the tenant's cluster (TenantConnections) with the tenant's
 * search_path set transaction-locally (`set_config(..., true)`), so a pooled connection
 * never carries one tenant's path into another tenant's work. Nested calls join.
 */
@Injectable()
export class TenantTransaction {
  constructor(
    private readonly connections: TenantConnections,
    private readonly context: TenantContext,
    private readonly nestedSettings: TenantTransactionSettingsRepository,
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
      if (extra.length > 0) await this.nestedSettings.apply(extra);
      return work();
    }
    const afterCommit: (() => Promise<void>)[] = [];
    let result: T;
    try {
      const all: [string, string][] = [['search_path', tenantSearchPath(tenant.schema)], ...extra];
      // On the tenant's cluster, with its search path (and the move lock when placement is on) first.
      result = await this.connections.transaction(
        tenant,
        async (manager) => {
          const outer = tenantScopes.getStore();
          // The transaction's connection joins the tenant's scope for everything `work` awaits.
          return tenantScopes.run({ ...outer, tenant, manager, afterCommit }, async () => {
            const value = await work();
            // In this transaction, on its connection: committed with the work or rolled back with it.
            await outer?.beforeCommit?.();
            return value;
          });
        },
        all,
      );
    } catch (error) {
      // The tenant was deleted (its schema dropped) after this request resolved it: a 404 like
      // any request that arrives a moment later, not a 500. A table missing from a schema that
      // still exists stays the bug it is.
      if (NAMES_GONE.has(errorCode(error) ?? '') && !(await this.connections.schemaExists(tenant))) {
        throw new NotFoundError('Tenant');
      }
      throw error;
    }
    for (const step of afterCommit) await step();
    return result;
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
