import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { assertProjectAccess, type SessionPrincipal } from '@cairn/access';
import { ProjectCards } from '@cairn/project-card';
import { ProjectResolver } from '@cairn/projects';
import { TenantTransaction } from '@cairn/tenancy';
import { CodeBranchesRepository } from './code-branches.repository';
import { CodeFilesRepository } from './code-files.repository';
import { CARD_SOURCE_FILES, deriveCard } from './card-derivation';

/** Files the card's outline reads at most: beyond that the card stays as the first ones make it. */
const OUTLINE_MAX_FILES = 50_000;

/**
 * The end of a `cairn index` run and removals: files gone from the tree leave the index (with
 * their symbols, references and passages), and a finished run records its commit and derives
 * the project card again from what is indexed now (edited sections stay as people wrote them).
 */
@Injectable()
export class CodeRuns {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly projects: ProjectResolver,
    private readonly branches: CodeBranchesRepository,
    private readonly files: CodeFilesRepository,
    private readonly cards: ProjectCards,
  ) {}

  remove(projectSlug: string, principal: SessionPrincipal, request: { branch: string; paths: readonly string[] }) {
    assertProjectAccess(principal, projectSlug);
    return this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      // Nothing to remove from a branch never indexed; otherwise it waits for an upload in progress.
      const branch = await this.branches.find(project.id, request.branch, { lock: true });
      return { removed: branch ? await this.files.remove(branch.id, [...new Set(request.paths)]) : 0 };
    });
  }

  finish(projectSlug: string, principal: SessionPrincipal, request: { branch: string; commit?: string }) {
    assertProjectAccess(principal, projectSlug);
    return this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      const branch = await this.branches.lockOrCreate(randomUUID(), project.id, request.branch);
      await this.branches.recordRun(branch.id, request.commit ?? null);
      const outline = await this.files.outline(branch.id, OUTLINE_MAX_FILES);
      const texts = await this.files.texts(branch.id, CARD_SOURCE_FILES);
      const commit = request.commit ?? branch.lastCommit;
      const version = await this.cards.refreshDerived(project.id, deriveCard(outline, texts), {
        branch: branch.name,
        commit,
      });
      const counts = await this.branches.counts(branch.id);
      return { branch: branch.name, commit, ...counts, card: { version } };
    });
  }
}
