import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { BadRequestError, ConflictError } from '@cairn/common';
import { TenantTransaction } from '@cairn/tenancy';
import { type ProjectEntity } from './project.entity';
import { DuplicateProjectError, ProjectsRepository } from './projects.repository';

/** Projects partition a tenant's data (DESIGN §3). */
@Injectable()
export class ProjectsService {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly projects: ProjectsRepository,
  ) {}

  create(input: { slug: string; name: string }): Promise<ProjectEntity> {
    return this.tx.run(async () => {
      try {
        return await this.projects.insert({ id: randomUUID(), ...input });
      } catch (error) {
        if (error instanceof DuplicateProjectError) {
          throw new ConflictError(`A project with slug "${input.slug}" already exists`, 'project_exists');
        }
        throw error;
      }
    });
  }

  /** The projects a token scope may see. */
  list(scope: '*' | readonly string[]): Promise<ProjectEntity[]> {
    return this.tx.run(() => this.projects.list(scope));
  }

  /** Rejects a project scope naming projects that do not exist in the current tenant. */
  async assertExist(slugs: readonly string[]): Promise<void> {
    const found = await this.tx.run(() => this.projects.existingSlugs(slugs));
    const missing = slugs.filter((slug) => !found.includes(slug));
    if (missing.length > 0) {
      throw new BadRequestError(`Unknown project(s): ${missing.join(', ')}`, undefined, 'unknown_project');
    }
  }
}
