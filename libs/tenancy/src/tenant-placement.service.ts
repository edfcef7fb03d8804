import { Inject, Injectable } from '@nestjs/common';
import { CairnError } from '@cairn/common';
import { CAIRN_CONFIG, type CairnConfig, databaseClusterNames, HOME_CLUSTER } from '@cairn/config';
import { TenantPlacementRepository } from './tenant-placement.repository';

/** How long a client waits before retrying a request that met its tenant mid-move. */
export const TENANT_MOVING_RETRY_AFTER_SECONDS = 1;

/**
 * 503 tenant_moving: the tenant's schema was being moved to another cluster while this request
 * waited for it; nothing of the request was committed, and a retry reaches the new cluster.
 */
export class TenantMovingError extends CairnError {
  constructor() {
    super(
      503,
      'tenant_moving',
      'The tenant is being moved to another database; retry shortly',
      { retryAfterSeconds: TENANT_MOVING_RETRY_AFTER_SECONDS },
      { 'Retry-After': String(TENANT_MOVING_RETRY_AFTER_SECONDS) },
    );
  }
}

/**
 * Which cluster a tenant lives on (docs/scaling.md). With no DATABASE_CLUSTERS every tenant is
 * home and nothing is looked up. Otherwise the answer is cached per process: placement changes
 * only by a move, and a transaction that meets a moved tenant's retired schema forgets the
 * entry (`forget`) and answers 503, so the retry reads the new placement.
 */
@Injectable()
export class TenantPlacement {
  private readonly known = new Map<string, string>();

  constructor(
    private readonly placements: TenantPlacementRepository,
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
  ) {}

  get enabled(): boolean {
    return this.config.database.clusters.length > 0;
  }

  async clusterOf(tenantId: string): Promise<string> {
    if (!this.enabled) return HOME_CLUSTER;
    const cached = this.known.get(tenantId);
    if (cached) return cached;
    const found = await this.placements.find(tenantId);
    const cluster = found?.cluster ?? HOME_CLUSTER;
    this.known.set(tenantId, cluster);
    return cluster;
  }

  /** The placement as home has it now (uncached), or undefined for no such tenant. */
  async lookup(tenantId: string): Promise<{ cluster: string; movingTo: string | null } | undefined> {
    const found = await this.placements.find(tenantId);
    if (found && !found.movingTo) this.known.set(tenantId, found.cluster);
    return found;
  }

  forget(tenantId: string): void {
    this.known.delete(tenantId);
  }

  /** Where a new tenant goes: DATABASE_PLACEMENT_CLUSTER, else the cluster with the fewest live tenants (home on ties). */
  async clusterForNewTenant(): Promise<string> {
    if (!this.enabled) return HOME_CLUSTER;
    if (this.config.database.placementCluster) return this.config.database.placementCluster;
    const counts = await this.placements.liveCounts();
    let best = HOME_CLUSTER;
    for (const name of databaseClusterNames(this.config)) {
      if ((counts.get(name) ?? 0) < (counts.get(best) ?? 0)) best = name;
    }
    return best;
  }
}
