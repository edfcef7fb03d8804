import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@cairn/common';
import { TenantContext } from '@cairn/tenancy';
import { LRUCache } from 'lru-cache';
import { ProjectsRepository } from './projects.repository';

/** Project slugs remembered per process (schema and id → slug): a few hundred kilobytes at most. */
const SLUG_CACHE_ENTRIES = 10_000;

/** What project-scoped services work with once the slug in the path is resolved. */
export interface ProjectRef {
  readonly id: string;
  readonly slug: string;
}

/**
 * Resolves a project slug inside the caller's tenant transaction (one indexed lookup in the
 * same round-trip budget as the work itself). The access guard has already checked the
 * token may use this slug.
 */
@Injectable()
export class ProjectResolver {
  /**
   * A project's slug never changes and its id is never reused (projects are neither renamed nor
   * deleted; a dropped tenant's schema name is never given again), so a remembered slug is never
   * stale: reads that show a record's project by slug seldom need a query for it.
   */
  private readonly slugs = new LRUCache<string, string>({ max: SLUG_CACHE_ENTRIES });

  constructor(
    private readonly projects: ProjectsRepository,
    private readonly tenant: TenantContext,
  ) {}

  async resolve(slug: string): Promise<ProjectRef> {
    const project = await this.projects.findBySlug(slug);
    if (!project) throw new NotFoundError(`Project "${slug}"`);
    return { id: project.id, slug: project.slug };
  }

  /** Every project among `slugs` ('*' for all) that exists, for cross-project search. */
  async resolveMany(slugs: '*' | readonly string[]): Promise<ProjectRef[]> {
    const found = await this.projects.list(slugs);
    return found.map((project) => ({ id: project.id, slug: project.slug }));
  }

  /**
   * The slug of each project among `ids` (nulls, records without a project, are skipped), for
   * showing other libraries' records by project: one indexed lookup for those not remembered.
   * Runs inside the caller's tenant transaction.
   */
  async slugsOf(ids: readonly (string | null)[]): Promise<ReadonlyMap<string, string>> {
    const schema = this.tenant.require('ProjectResolver.slugsOf').schema;
    const found = new Map<string, string>();
    const missing: string[] = [];
    for (const id of new Set(ids)) {
      if (id === null) continue;
      const slug = this.slugs.get(`${schema}\u0000${id}`);
      if (slug === undefined) missing.push(id);
      else found.set(id, slug);
    }
    if (missing.length > 0) {
      for (const { id, slug } of await this.projects.slugsOf(missing)) {
        this.slugs.set(`${schema}\u0000${id}`, slug);
        found.set(id, slug);
      }
    }
    return found;
  }
}
