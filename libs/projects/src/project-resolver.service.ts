import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@cairn/common';
import { ProjectsRepository } from './projects.repository';

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
  constructor(private readonly projects: ProjectsRepository) {}

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
}
