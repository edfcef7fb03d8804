import { Injectable } from '@nestjs/common';
import { SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { TenantDb } from '@cairn/tenancy';
import { In } from 'typeorm';
import { ProjectEntity } from './project.entity';

const UNIQUE_VIOLATION = '23505';

export class DuplicateProjectError extends Error {}

/** Projects of the current tenant; every call runs inside a tenant transaction. */
@Injectable()
export class ProjectsRepository {
  constructor(private readonly db: TenantDb) {}

  @SqlSnapshot({ params: [{ id: EX.newProjectId, slug: 'api', name: 'API' }] })
  async insert(project: { id: string; slug: string; name: string }): Promise<ProjectEntity> {
    const repository = this.db.repository(ProjectEntity);
    try {
      // A savepoint keeps the surrounding tenant transaction usable after a duplicate.
      await this.db.query('SAVEPOINT project_insert');
      await repository.insert({ ...project, card: {} });
      await this.db.query('RELEASE SAVEPOINT project_insert');
    } catch (error) {
      await this.db.query('ROLLBACK TO SAVEPOINT project_insert');
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw new DuplicateProjectError(project.slug);
      throw error;
    }
    return repository.findOneByOrFail({ id: project.id });
  }

  /** All projects, or only those whose slugs are listed. */
  @SqlSnapshot({ name: 'every project', params: ['*'] }, { name: 'by slug', params: [[EX.projectSlug, 'api']] })
  list(slugs: '*' | readonly string[]): Promise<ProjectEntity[]> {
    const where = slugs === '*' ? {} : { slug: In([...slugs]) };
    return this.db.repository(ProjectEntity).find({ where, order: { slug: 'ASC' } });
  }

  @SqlSnapshot({ params: [EX.projectSlug] })
  findBySlug(slug: string): Promise<ProjectEntity | null> {
    return this.db.repository(ProjectEntity).findOneBy({ slug });
  }

  @SqlSnapshot({ params: [[EX.projectSlug, 'api']] })
  async existingSlugs(slugs: readonly string[]): Promise<string[]> {
    if (slugs.length === 0) return [];
    const rows = await this.db
      .repository(ProjectEntity)
      .find({ select: { slug: true }, where: { slug: In([...slugs]) } });
    return rows.map((row) => row.slug);
  }

  /** When anyone was last briefed in the project; null before the first briefing. */
  @SqlSnapshot({ params: [EX.projectId] })
  async lastSeenAt(projectId: string): Promise<Date | null> {
    const rows = await this.db.query<{ at: Date | null }>('SELECT last_seen_at AS at FROM projects WHERE id = $1', [
      projectId,
    ]);
    return rows[0]?.at ?? null;
  }

  /** Records a briefing in the project at `at` (a visit is not a change of the project: updated_at stays). */
  @SqlSnapshot({ params: [EX.projectId, EX.date] })
  async recordVisit(projectId: string, at: Date): Promise<void> {
    await this.db.query('UPDATE projects SET last_seen_at = $2 WHERE id = $1', [projectId, at]);
  }

  /** The slugs of the projects among `ids`. */
  @SqlSnapshot({ params: [[EX.projectId, EX.newProjectId]] })
  slugsOf(ids: readonly string[]): Promise<{ id: string; slug: string }[]> {
    return this.db.query<{ id: string; slug: string }>('SELECT id, slug FROM projects WHERE id = ANY($1::uuid[])', [
      ids,
    ]);
  }
}
