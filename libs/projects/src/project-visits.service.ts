import { Injectable } from '@nestjs/common';
import { TenantTransaction } from '@cairn/tenancy';
import { ProjectsRepository } from './projects.repository';

/**
 * When a project was last briefed ("what changed since"), for working memory's briefing. Each
 * call joins the caller's tenant transaction.
 */
@Injectable()
export class ProjectVisits {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly projects: ProjectsRepository,
  ) {}

  /** The last briefing of anyone in the project; null before the first. */
  lastSeenAt(projectId: string): Promise<Date | null> {
    return this.tx.run(() => this.projects.lastSeenAt(projectId));
  }

  /** Records a briefing in the project at `at`. */
  recordVisit(projectId: string, at: Date): Promise<void> {
    return this.tx.run(() => this.projects.recordVisit(projectId, at));
  }
}
