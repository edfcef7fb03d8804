import { AsyncLocalStorage } from 'node:async_hooks';
import { type EntityManager } from 'typeorm';
import { type TenantRef } from './tenant-ref';

/** What a unit of work knows about the tenant it runs in. */
export interface TenantScope {
  readonly tenant: TenantRef;
  /** Set inside a tenant transaction; every repository call in it shares this connection. */
  readonly manager?: EntityManager;
  /** Work to run once the outermost transaction has committed (jobs, notifications). */
  readonly afterCommit?: (() => Promise<void>)[];
  /**
   * Runs inside every outermost tenant transaction of this scope, after its work and just
   * before its COMMIT, so what it writes commits with the change or not at all (the audit
   * outbox of a tool call).
   */
  readonly beforeCommit?: () => Promise<void>;
}

/**
 * The tenant of the current request or job, carried in AsyncLocalStorage. Private to
 * libs/tenancy (never exported from index.ts; `.dependency-cruiser.cjs` names the files that may
 * import it): `TenantEntry` is the only code that starts a scope, so there is one way into a
 * tenant and it is reviewed in one place.
 */
export const tenantScopes = new AsyncLocalStorage<TenantScope>();
