import { Injectable } from '@nestjs/common';

/** Runs one parameterized statement on the deleting transaction's connection (@cairn/db's SqlRunner). */
export type DeletionSql = (sql: string, parameters?: unknown[]) => Promise<unknown>;

/** What a step did, by name (e.g. `{ tokensRevoked: 3 }`): the deletion's purge report shows it. */
export type DeletionCounts = Readonly<Record<string, number>>;

/**
 * Work that must commit with a tenant's deletion, on rows another library owns (auth revokes
 * the tenant's tokens and disables its users). Runs inside the deleting transaction, through
 * `sql`, so nothing of the tenant stays usable for a moment longer and a failure deletes nothing.
 * It answers what it changed, so the operator sees what the deletion reached.
 */
export type TenantDeletionStep = (tenantId: string, sql: DeletionSql) => Promise<DeletionCounts>;

/**
 * The steps of a tenant's deletion that tenancy does not own, registered by their owners at
 * boot (TenantsRepository.softDelete runs them). Tenancy never names another library's table.
 */
@Injectable()
export class TenantDeletionSteps {
  private readonly steps = new Map<string, TenantDeletionStep>();

  /** `name` says whose step it is; registering a name twice replaces its step (one per owner). */
  register(name: string, step: TenantDeletionStep): void {
    this.steps.set(name, step);
  }

  all(): TenantDeletionStep[] {
    return [...this.steps.values()];
  }
}
