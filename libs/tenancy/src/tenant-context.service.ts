import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { MissingTenantContextError } from '@cairn/common';
import { type EntityManager } from 'typeorm';
import { type TenantRef } from './tenant-ref';

interface TenantStore {
  readonly tenant: TenantRef;
  /** Set inside a tenant transaction; every repository call in it shares this connection. */
  readonly manager?: EntityManager;
  /** Work to run once the outermost transaction has committed (jobs, notifications). */
  readonly afterCommit?: (() => Promise<void>)[];
  /**
   * Runs inside every outermost tenant transaction of this context, after its work and just
   * before its COMMIT, so what it writes commits with the change or not at all (the audit
   * outbox of a tool call).
   */
  readonly beforeCommit?: () => Promise<void>;
}

const storage = new AsyncLocalStorage<TenantStore>();

/** The tenant of the current request or job, carried in AsyncLocalStorage. */
@Injectable()
export class TenantContext {
  run<T>(tenant: TenantRef, fn: () => T, options: { beforeCommit?: () => Promise<void> } = {}): T {
    return storage.run({ tenant, beforeCommit: options.beforeCommit }, fn);
  }

  current(): TenantRef | undefined {
    return storage.getStore()?.tenant;
  }

  require(operation: string): TenantRef {
    const tenant = storage.getStore()?.tenant;
    if (!tenant) throw new MissingTenantContextError(operation);
    return tenant;
  }

  /** @internal used by TenantTransaction and TenantDb only. */
  store(): TenantStore | undefined {
    return storage.getStore();
  }

  /** @internal */
  withManager<T>(manager: EntityManager, afterCommit: (() => Promise<void>)[], fn: () => T): T {
    const store = storage.getStore();
    if (!store) throw new MissingTenantContextError('a tenant transaction');
    return storage.run({ ...store, manager, afterCommit }, fn);
  }
}
