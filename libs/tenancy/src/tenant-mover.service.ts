import { Inject, Injectable } from '@nestjs/common';
import { BadRequestError, ConflictError, NotFoundError } from '@cairn/common';
import { CAIRN_CONFIG, type CairnConfig, databaseClusterNames, databaseClusterUrl } from '@cairn/config';
import { ControlSchemaRepository } from './control-schema.repository';
import { copySchema } from './schema-copy';
import { type TableDigest, type TenantFreeze, TenantMoveRepository } from './tenant-move.repository';
import { type TenantMoveCounts, TenantMoveSteps } from './tenant-move.registry';
import { TenantPlacement } from './tenant-placement.service';
import { TenantPlacementRepository } from './tenant-placement.repository';
import { TenantsRepository } from './tenants.repository';

/** What a move did: where from and to, how long the tenant was frozen, what was copied and verified. */
export interface TenantMoveReport {
  readonly slug: string;
  readonly schema: string;
  readonly from: string;
  readonly to: string;
  /** The old copy's name on the source cluster, kept until an operator drops it. */
  readonly retiredAs: string;
  readonly frozenMs: number;
  readonly tables: readonly TableDigest[];
  readonly steps: TenantMoveCounts;
}

/**
 * Moves a tenant's schema to another cluster with a bounded write freeze (docs/scaling.md,
 * "Moving a tenant"): freeze the tenant on its source (the move lock, which every tenant
 * transaction there takes shared), copy the schema (pg_dump into psql), verify every table's
 * count and digest on both sides, carry the rows other libraries keep outside the schema, retire
 * the old copy (renamed: transactions that waited find no schema and answer 503 tenant_moving),
 * flip the placement on home, unfreeze. Under the migration lock, so no migration runs on either
 * copy meanwhile. Any failure before the flip drops the new copy and leaves the tenant where it was.
 */
@Injectable()
export class TenantMover {
  constructor(
    private readonly tenants: TenantsRepository,
    private readonly placements: TenantPlacementRepository,
    private readonly placement: TenantPlacement,
    private readonly moves: TenantMoveRepository,
    private readonly steps: TenantMoveSteps,
    private readonly control: ControlSchemaRepository,
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
  ) {}

  async move(slug: string, to: string, now: () => Date = () => new Date()): Promise<TenantMoveReport> {
    const targetUrl = databaseClusterUrl(this.config, to);
    if (targetUrl === undefined) {
      const names = databaseClusterNames(this.config).join(', ');
      throw new BadRequestError(`No cluster "${to}": the clusters are ${names}`);
    }
    return this.control.withMigrationLock(
      () => undefined,
      async () => {
        const tenant = await this.tenants.findLiveBySlug(slug);
        if (!tenant) throw new NotFoundError(`Tenant "${slug}"`);
        if (tenant.cluster === to) throw new ConflictError(`Tenant "${slug}" is on ${to} already`, 'tenant_placed');
        if (await this.moves.schemaExists(to, tenant.schemaName)) {
          throw new ConflictError(`Cluster ${to} already has a schema ${tenant.schemaName}`, 'schema_exists');
        }
        if (!(await this.placements.startMove(tenant.id, to))) {
          throw new ConflictError(`Tenant "${slug}" is being moved already`, 'tenant_moving');
        }
        const from = tenant.cluster;
        let freeze: TenantFreeze | undefined;
        let copyMade = false;
        try {
          freeze = await this.moves.freeze(from, tenant.id);
          const frozenAt = performance.now();
          copyMade = true;
          const sourceUrl = databaseClusterUrl(this.config, from);
          if (sourceUrl === undefined)
            throw new Error(`tenant placed on cluster "${from}", which DATABASE_CLUSTERS does not name`);
          await copySchema(sourceUrl, targetUrl, tenant.schemaName);
          await this.moves.stamp(to, tenant.schemaName, tenant.schemaVersion);
          const tables = await this.verify(from, to, tenant.schemaName);
          const steps = await this.runSteps(tenant.id, tenant.schemaName, from, to);
          const retiredAs = `${tenant.schemaName}_moved_${Math.floor(now().getTime() / 1000)}`;
          await freeze.retire(tenant.schemaName, retiredAs);
          try {
            await this.placements.endMove(tenant.id, to);
          } catch (error) {
            await this.moves.restoreRetired(from, retiredAs, tenant.schemaName);
            throw error;
          }
          copyMade = false;
          this.placement.forget(tenant.id);
          await freeze.release();
          const frozenMs = Math.round(performance.now() - frozenAt);
          return { slug, schema: tenant.schemaName, from, to, retiredAs, frozenMs, tables, steps };
        } catch (error) {
          if (copyMade) await this.moves.dropSchema(to, tenant.schemaName);
          await this.placements.endMove(tenant.id, from);
          throw error;
        } finally {
          await freeze?.release();
        }
      },
    );
  }

  /** Every table of the copy matches the source's count and digest, or the move stops here. */
  private async verify(from: string, to: string, schema: string): Promise<TableDigest[]> {
    const [source, target] = await Promise.all([this.moves.digests(from, schema), this.moves.digests(to, schema)]);
    const targetByTable = new Map(target.map((digest) => [digest.table, digest]));
    const different = source.filter((digest) => {
      const copy = targetByTable.get(digest.table);
      return !copy || copy.rows !== digest.rows || copy.md5 !== digest.md5;
    });
    if (different.length > 0 || source.length !== target.length) {
      throw new Error(
        `the copy differs from the source in ${different.map((d) => d.table).join(', ') || 'its tables'}`,
      );
    }
    return source;
  }

  private async runSteps(tenantId: string, schema: string, from: string, to: string): Promise<TenantMoveCounts> {
    const source = await this.moves.runnerOn(from);
    const target = await this.moves.runnerOn(to);
    let counts: TenantMoveCounts = {};
    for (const step of this.steps.all()) counts = { ...counts, ...(await step({ tenantId, schema, source, target })) };
    return counts;
  }
}
