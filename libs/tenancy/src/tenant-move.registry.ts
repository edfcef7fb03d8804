import { Injectable } from '@nestjs/common';

/** Runs one parameterized statement on one cluster of a move (@cairn/db's SqlRunner). */
export type MoveSql = (sql: string, parameters?: unknown[]) => Promise<unknown>;

/** The two clusters of a move, each as a runner of one parameterized statement, and the tenant moved. */
export interface TenantMoveContext {
  readonly tenantId: string;
  readonly schema: string;
  readonly source: MoveSql;
  readonly target: MoveSql;
}

/** What a step carried, by name (e.g. `{ outboxRows: 2 }`): the move's report shows it. */
export type TenantMoveCounts = Readonly<Record<string, number>>;

/**
 * Rows of the tenant that live outside its schema but must follow it to its new cluster (the
 * audit outbox, which a tool call writes in its tenant transaction), registered by their owners
 * at boot, like TenantDeletionSteps. TenantMover runs them while the tenant is frozen, after the
 * schema's copy is verified and before the placement flips; each must be safe to run again.
 */
export type TenantMoveStep = (move: TenantMoveContext) => Promise<TenantMoveCounts>;

@Injectable()
export class TenantMoveSteps {
  private readonly steps = new Map<string, TenantMoveStep>();

  register(name: string, step: TenantMoveStep): void {
    this.steps.set(name, step);
  }

  all(): TenantMoveStep[] {
    return [...this.steps.values()];
  }
}
