import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ClusterPools, HOME_CLUSTER, SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { type DataSource, type EntityManager } from 'typeorm';
import { type DeletionCounts, TenantDeletionSteps } from './tenant-deletion.registry';
import { TenantEntity } from './tenant.entity';
import { TenantMigrator } from './tenant-migrator.service';
import { quotedSchema, schemaNameFor, tenantSearchPath } from './tenant-ref';

const UNIQUE_VIOLATION = '23505';

export class DuplicateSlugError extends Error {}

export interface TenantPage {
  readonly items: TenantEntity[];
  readonly nextCursor: string | null;
}

/** What a tenant's deletion purged: the rows of each table of its schema, and what the other steps did. */
export interface TenantPurge {
  readonly schema: string;
  readonly tables: readonly { readonly table: string; readonly rows: number }[];
  readonly access: DeletionCounts;
}

/** Control-schema access for tenants, including their schemas' lifecycle. */
@Injectable()
export class TenantsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly migrator: TenantMigrator,
    private readonly deletionSteps: TenantDeletionSteps,
    private readonly pools: ClusterPools,
  ) {}

  /**
   * Inserts the tenant, creates its schema on `cluster` and migrates it to the latest version in
   * one transaction: a tenant exists fully migrated or not at all. On a member cluster that is two
   * transactions, the member's committed just before home's, so no reader of home sees the tenant
   * before its schema is complete (a failed home commit leaves an unreachable schema behind).
   */
  @SqlSnapshot({
    name: 'the tenant migrations it applies are left out',
    params: [
      { id: EX.newTenantId, slug: 'example-new', name: 'Example (new)', schemaName: schemaNameFor(EX.newTenantId) },
    ],
  })
  async provision(
    tenant: { id: string; slug: string; name: string; schemaName: string },
    cluster: string = HOME_CLUSTER,
  ): Promise<TenantEntity> {
    try {
      return await this.dataSource.transaction(async (manager) => {
        await manager.query(
          `INSERT INTO cairn.tenants (id, slug, name, schema_name, schema_version, cluster) VALUES ($1, $2, $3, $4, 0, $5)`,
          [tenant.id, tenant.slug, tenant.name, tenant.schemaName, cluster],
        );
        if (cluster === HOME_CLUSTER) {
          await manager.query(`CREATE SCHEMA ${quotedSchema(tenant.schemaName)}`);
          await manager.query(`SELECT set_config('search_path', $1, true)`, [tenantSearchPath(tenant.schemaName)]);
          await this.migrator.applyAllWithin(manager, tenant.id);
        } else {
          const member = await this.pools.dataSource(cluster);
          await member.transaction(async (memberManager) => {
            await memberManager.query(`CREATE SCHEMA ${quotedSchema(tenant.schemaName)}`);
            await memberManager.query(`SELECT set_config('search_path', $1, true)`, [
              tenantSearchPath(tenant.schemaName),
            ]);
            await this.migrator.applyAllAcross(memberManager, manager, { id: tenant.id, schema: tenant.schemaName });
          });
        }
        return manager.findOneByOrFail(TenantEntity, { id: tenant.id });
      });
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw new DuplicateSlugError(tenant.slug);
      throw error;
    }
  }

  @SqlSnapshot({ params: [EX.tenantSlug] })
  findLiveBySlug(slug: string): Promise<TenantEntity | null> {
    return this.live().andWhere('t.slug = :slug', { slug }).getOne();
  }

  @SqlSnapshot({ params: [EX.tenantId] })
  findLiveById(id: string): Promise<TenantEntity | null> {
    return this.live().andWhere('t.id = :id', { id }).getOne();
  }

  /**
   * Suspends a live tenant (keeping the first moment it was suspended) or resumes it; the tenant
   * as it is now, or null when it is not live. The change notice (control migration 0007) makes
   * every replica drop its cached answers about the tenant's tokens at commit.
   */
  @SqlSnapshot({ params: [EX.tenantId, true] })
  async setSuspended(id: string, suspended: boolean): Promise<TenantEntity | null> {
    await this.dataSource.query(
      `UPDATE cairn.tenants SET suspended_at = CASE WHEN $2::boolean THEN coalesce(suspended_at, now()) END
        WHERE id = $1 AND deleted_at IS NULL`,
      [id, suspended],
    );
    return this.findLiveById(id);
  }

  /** The tenants among `ids`, deleted ones included. */
  @SqlSnapshot({ params: [[EX.tenantId, EX.newTenantId]] })
  findManyById(ids: readonly string[]): Promise<TenantEntity[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.dataSource
      .getRepository(TenantEntity)
      .createQueryBuilder('t')
      .where('t.id IN (:...ids)', { ids: [...ids] })
      .getMany();
  }

  /** Keyset pagination in creation order; the cursor is the last id seen. */
  @SqlSnapshot({ name: 'first page', params: [20] }, { name: 'after a tenant', params: [20, EX.tenantId] })
  async listLive(limit: number, afterId?: string): Promise<TenantPage> {
    const query = this.live()
      .orderBy('t.created_at', 'ASC')
      .addOrderBy('t.id', 'ASC')
      .take(limit + 1);
    if (afterId) {
      query.andWhere('(t.created_at, t.id) > (SELECT c.created_at, c.id FROM cairn.tenants c WHERE c.id = :afterId)', {
        afterId,
      });
    }
    const rows = await query.getMany();
    const items = rows.slice(0, limit);
    const last = items[items.length - 1];
    return { items, nextCursor: rows.length > limit && last ? last.id : null };
  }

  /**
   * Drops the tenant's schema and, in the same transaction, runs the deletion steps other
   * libraries registered (auth revokes every token and disables every user), so nothing of the
   * tenant stays usable for a moment longer. Answers what it purged (rows per table, the steps' counts).
   */
  @SqlSnapshot({
    name: 'the deletion steps other libraries register are left out',
    params: [
      {
        id: EX.tenantId,
        slug: EX.tenantSlug,
        name: 'Example',
        schemaName: schemaNameFor(EX.tenantId),
        cluster: HOME_CLUSTER,
      },
    ],
  })
  async softDelete(tenant: TenantEntity): Promise<TenantPurge> {
    return this.dataSource.transaction(async (manager: EntityManager) => {
      await manager.query(`UPDATE cairn.tenants SET deleted_at = now() WHERE id = $1`, [tenant.id]);
      const sql = (text: string, parameters?: unknown[]) => manager.query(text, parameters);
      let access: DeletionCounts = {};
      for (const step of this.deletionSteps.all()) access = { ...access, ...(await step(tenant.id, sql)) };
      if (tenant.cluster !== HOME_CLUSTER) {
        // On its member cluster, committed before home's deletion (docs/scaling.md: not atomic with it).
        const member = await this.pools.dataSource(tenant.cluster);
        const tables = await member.transaction((memberManager) => countAndDrop(memberManager, tenant.schemaName));
        return { schema: tenant.schemaName, tables, access };
      }
      return { schema: tenant.schemaName, tables: await countAndDrop(manager, tenant.schemaName), access };
    });
  }

  private live() {
    return this.dataSource.getRepository(TenantEntity).createQueryBuilder('t').andWhere('t.deleted_at IS NULL');
  }
}

/** Counts every table's rows and drops the schema, in `manager`'s transaction: exactly what the drop removes. */
async function countAndDrop(manager: EntityManager, schemaName: string): Promise<TenantPurge['tables']> {
  // Counted in the deleting transaction, just before the drop: exactly what the drop removes.
  // One statement for every table (query_to_xml runs each count; %I quotes the names).
  const tables = await manager.query<{ table: string; rows: string }[]>(
    `SELECT c.relname AS table,
                (xpath('/row/n/text()', query_to_xml(format('SELECT count(*) AS n FROM %I.%I', n.nspname, c.relname),
                  false, true, '')))[1]::text AS rows
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND NOT c.relispartition
          ORDER BY c.relname`,
    [schemaName],
  );
  await manager.query(`DROP SCHEMA IF EXISTS ${quotedSchema(schemaName)} CASCADE`);
  return tables.map((row) => ({ table: row.table, rows: Number(row.rows) }));
}
