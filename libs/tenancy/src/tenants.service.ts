import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ConflictError, NotFoundError } from '@cairn/common';
import { type TenantEntity } from './tenant.entity';
import { TenantPlacement } from './tenant-placement.service';
import { type LiveTenant, schemaNameFor, type TenantRef } from './tenant-ref';
import { DuplicateSlugError, type TenantPage, type TenantPurge, TenantsRepository } from './tenants.repository';

/** Tenant lifecycle: provisioning a migrated schema, lookup, and deletion. */
@Injectable()
export class TenantsService {
  constructor(
    private readonly tenants: TenantsRepository,
    private readonly placement: TenantPlacement,
  ) {}

  /** Provisions the tenant on the cluster the placement policy picks (docs/scaling.md). */
  async create(input: { slug: string; name: string }): Promise<TenantEntity> {
    const id = randomUUID();
    const cluster = await this.placement.clusterForNewTenant();
    try {
      return await this.tenants.provision(
        { id, slug: input.slug, name: input.name, schemaName: schemaNameFor(id) },
        cluster,
      );
    } catch (error) {
      if (error instanceof DuplicateSlugError) {
        throw new ConflictError(`A tenant with slug "${input.slug}" already exists`, 'tenant_exists');
      }
      throw error;
    }
  }

  list(limit: number, cursor?: string): Promise<TenantPage> {
    return this.tenants.listLive(limit, cursor);
  }

  async getBySlug(slug: string): Promise<TenantEntity> {
    const tenant = await this.tenants.findLiveBySlug(slug);
    if (!tenant) throw new NotFoundError(`Tenant "${slug}"`);
    return tenant;
  }

  findBySlug(slug: string): Promise<TenantEntity | null> {
    return this.tenants.findLiveBySlug(slug);
  }

  /**
   * Whether a tenant named by id is still live (null once deleted), for checks that do not enter
   * it (a token's tenant, a data key's owner); work that enters it goes through TenantEntry.runIfLive.
   */
  findLiveById(id: string): Promise<TenantEntity | null> {
    return this.tenants.findLiveById(id);
  }

  /** The tenants among `ids`, deleted ones included (`deletedAt` says): for reports over every tenant's rows. */
  findManyById(ids: readonly string[]): Promise<TenantEntity[]> {
    return this.tenants.findManyById(ids);
  }

  /**
   * Suspends (or resumes) a live tenant: while suspended its tokens and sessions are refused
   * with 403 tenant_suspended (TokenVerifier, sign-in); its data, tokens and users stay as they are.
   */
  async setSuspended(slug: string, suspended: boolean): Promise<TenantEntity> {
    const tenant = await this.getBySlug(slug);
    const updated = await this.tenants.setSuspended(tenant.id, suspended);
    if (!updated) throw new NotFoundError(`Tenant "${slug}"`);
    return updated;
  }

  /** Deletes a live tenant; answers it with what the deletion purged. */
  async delete(slug: string): Promise<{ tenant: TenantEntity; purge: TenantPurge }> {
    const tenant = await this.getBySlug(slug);
    return { tenant, purge: await this.tenants.softDelete(tenant) };
  }
}

export function toTenantRef(tenant: TenantEntity): TenantRef {
  return { id: tenant.id, slug: tenant.slug, schema: tenant.schemaName };
}

export function toLiveTenant(tenant: TenantEntity): LiveTenant {
  return { ...toTenantRef(tenant), name: tenant.name };
}
