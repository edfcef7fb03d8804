import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource } from 'typeorm';
import { TenantContext } from './tenant-context';
import { tenantSearchPath } from './tenant-ref';

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

  async run<T>(work: () => Promise<T>): Promise<T> {
    const tenant = this.context.require('TenantTransaction.run');
    if (this.context.store()?.manager) return work();
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT set_config('search_path', $1, true)`, [tenantSearchPath(tenant.schema)]);
      return this.context.withManager(manager, work);
    });
  }
}
