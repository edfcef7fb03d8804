import { Injectable } from '@nestjs/common';
import { MissingTenantContextError } from '@cairn/common';
import { type TenantRef } from './tenant-ref';
import { tenantScopes } from './tenant-scope';

/**
 * Which tenant the current unit of work runs in. Read-only: work enters a tenant through
 * `TenantEntry` (a request's adapter, a job's registry, a runner's loop), never here.
 */
@Injectable()
export class TenantContext {
  current(): TenantRef | undefined {
    return tenantScopes.getStore()?.tenant;
  }

  require(operation: string): TenantRef {
    const tenant = tenantScopes.getStore()?.tenant;
    if (!tenant) throw new MissingTenantContextError(operation);
    return tenant;
  }
}
