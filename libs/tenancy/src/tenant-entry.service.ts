import { Injectable } from '@nestjs/common';
import { type LiveTenant, type TenantRef } from './tenant-ref';
import { tenantScopes } from './tenant-scope';
import { TenantTransaction } from './tenant-transaction.service';
import { TenantsRepository } from './tenants.repository';
import { toLiveTenant } from './tenants.service';

/**
 * The one way work enters a tenant: the HTTP interceptor and the MCP executor (a request's
 * authenticated tenant), the job registry (a job's `tenantId`, checked live first), runners that
 * loop over tenants or outlive their request (a stream, a flush), tools and tests. Everything
 * inside reads the tenant from `TenantContext` and reaches its data through `TenantTransaction`
 * and `TenantDb`. Nothing else can start a tenant scope (`tenant-scope.ts` is private to this
 * library), so how work enters a tenant (the live check for work that names it by id, the
 * context, the transaction) is decided here, once, and no entry point does it by hand.
 */
@Injectable()
export class TenantEntry {
  constructor(
    private readonly tenants: TenantsRepository,
    private readonly tx: TenantTransaction,
  ) {}

  /**
   * Runs `work` as `tenant`, which the caller holds as live (authenticated, just listed).
   * `beforeCommit` runs inside each outermost tenant transaction of `work`, just before COMMIT.
   */
  run<T>(tenant: TenantRef, work: () => T, options: { beforeCommit?: () => Promise<void> } = {}): T {
    return tenantScopes.run({ tenant, beforeCommit: options.beforeCommit }, work);
  }

  /** `run`, with `work` in one tenant transaction. */
  transaction<T>(tenant: TenantRef, work: () => Promise<T>): Promise<T> {
    return this.run(tenant, () => this.tx.run(work));
  }

  /**
   * For work that names its tenant by id and may outlive it (a job queued before the tenant was
   * deleted): runs `work` as the tenant only while it is live; otherwise runs nothing and returns
   * `whenGone()`.
   */
  async runIfLive<T, G>(tenantId: string, work: (tenant: LiveTenant) => Promise<T>, whenGone: () => G): Promise<T | G> {
    const found = await this.tenants.findLiveById(tenantId);
    if (!found) return whenGone();
    const tenant = toLiveTenant(found);
    return this.run(tenant, () => work(tenant));
  }
}
