import { Injectable } from '@nestjs/common';
import { assertProjectAccess, authorOf, type SessionPrincipal } from '@cairn/access';
import { BadRequestError, ConflictError, NotFoundError, pathForMessage } from '@cairn/common';
import { ProjectResolver } from '@cairn/projects';
import { SecretRedaction } from '@cairn/secrets';
import { TenantTransaction } from '@cairn/tenancy';
import { contentOf, fitDerived, mergeDerived, sameContent, sectionsOf } from './card-content';
import { projectCardEditSchema } from './contract/project-card.dto';
import {
  CARD_VERSIONS_MAX_LIMIT,
  type DerivationSource,
  EMPTY_CARD_CONTENT,
  PROJECT_CARD_SECTIONS,
  type ProjectCardContent,
  type ProjectCardEdit,
  type ProjectCardSection,
  type ProjectCardVersionPage,
  type ProjectCardVersionSummary,
  type ProjectCardView,
} from './contract/project-card.types';
import { ProjectCardVersionsRepository, type StoredCardVersion } from './project-card-versions.repository';

/** Where the originals of secrets redacted from a card version are recorded as written. */
const SOURCE_TABLE = 'project_card_versions';

/**
 * The project card (issue 25): derived from the project's code index after each `cairn index`
 * run, editable by agents and people, every version kept. An edited section belongs to its
 * editors from then on: derivation refreshes only the others.
 */
@Injectable()
export class ProjectCards {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly projects: ProjectResolver,
    private readonly versionsRepository: ProjectCardVersionsRepository,
    private readonly secrets: SecretRedaction,
  ) {}

  /** The newest version, or an empty card (version 0) when the project has none. */
  current(projectSlug: string, principal: SessionPrincipal): Promise<ProjectCardView> {
    assertProjectAccess(principal, projectSlug);
    return this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      const newest = await this.versionsRepository.newest(project.id);
      return newest ? viewOf(project.slug, newest) : emptyCard(project.slug);
    });
  }

  /** The history, newest first, `limit` versions older than `before` at a time. */
  versions(
    projectSlug: string,
    principal: SessionPrincipal,
    page: { before?: number; limit: number },
  ): Promise<ProjectCardVersionPage> {
    assertProjectAccess(principal, projectSlug);
    const limit = Math.min(Math.max(1, Math.trunc(page.limit)), CARD_VERSIONS_MAX_LIMIT);
    return this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      const rows = await this.versionsRepository.page(project.id, page.before ?? null, limit + 1);
      const items = rows.slice(0, limit).map(summaryOf);
      return { project: project.slug, items, nextBefore: rows.length > limit ? items[items.length - 1].version : null };
    });
  }

  version(projectSlug: string, principal: SessionPrincipal, version: number): Promise<ProjectCardView> {
    assertProjectAccess(principal, projectSlug);
    return this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      const found = await this.versionsRepository.byVersion(project.id, version);
      if (!found) throw new NotFoundError(`Version ${version} of the project card of "${project.slug}"`);
      return viewOf(project.slug, found);
    });
  }

  /**
   * A new version with the given sections replaced, and counted as edited from then on. With
   * `expectedVersion`, refused (409) unless that is still the current version: the caller read
   * a card someone else has changed since.
   */
  async edit(projectSlug: string, principal: SessionPrincipal, input: ProjectCardEdit): Promise<ProjectCardView> {
    assertProjectAccess(principal, projectSlug);
    const parsed = projectCardEditSchema.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new BadRequestError(`${pathForMessage(issue.path) || 'input'}: ${issue.message}`);
    }
    const { expectedVersion } = parsed.data;
    // Before the transaction: sealing may read the tenant's data key on a connection of its own.
    const clean = await this.secrets.redactFields({ changes: parsed.data.changes, note: parsed.data.note ?? null });
    const changes = clean.fields.changes as Partial<ProjectCardContent>;
    const changed = PROJECT_CARD_SECTIONS.filter((section) => changes[section] !== undefined);
    return this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      await this.versionsRepository.lockCard(project.id);
      const newest = await this.versionsRepository.newest(project.id);
      const current = newest?.version ?? 0;
      if (expectedVersion !== undefined && expectedVersion !== current) {
        throw new ConflictError(
          `The project card of "${project.slug}" is at version ${current}, not ${expectedVersion}: ` +
            'read it again and make the change on the current version',
          'card_version_conflict',
        );
      }
      const edited = new Set<ProjectCardSection>([...sectionsOf(newest?.edited ?? []), ...changed]);
      const row = await this.versionsRepository.insert({
        projectId: project.id,
        version: current + 1,
        content: { ...(newest ? contentOf(newest.content) : EMPTY_CARD_CONTENT), ...changes },
        edited: PROJECT_CARD_SECTIONS.filter((section) => edited.has(section)),
        derivedFrom: newest?.derivedFrom ?? null,
        author: authorOf(principal),
        note: clean.fields.note,
      });
      await this.secrets.keep(clean.sealed, {
        projectId: project.id,
        sourceTable: SOURCE_TABLE,
        sourceId: `${project.id}:${row.version}`,
        writer: authorOf(principal),
      });
      return viewOf(project.slug, row);
    });
  }

  /**
   * For the code index, after an index run, inside its tenant transaction (no principal: the run
   * is the author): the derived content with the edited sections kept, written as a new version
   * only when it says something the current card does not. Returns the card's version after it.
   * Secrets in derived text are redacted; their originals are not kept (no caller to own them,
   * and the code they came from holds them anyway).
   */
  async refreshDerived(projectId: string, derived: ProjectCardContent, source: DerivationSource): Promise<number> {
    const fitted = fitDerived(derived);
    const clean = (await this.secrets.redactFields({ derived: fitted })).fields.derived;
    return this.tx.run(async () => {
      await this.versionsRepository.lockCard(projectId);
      const newest = await this.versionsRepository.newest(projectId);
      const edited = sectionsOf(newest?.edited ?? []);
      const current = newest ? contentOf(newest.content) : EMPTY_CARD_CONTENT;
      const merged = mergeDerived(current, edited, clean);
      if (newest && sameContent(merged, current)) return newest.version;
      // A project without a card gets none from an index that found nothing to say.
      if (!newest && sameContent(merged, EMPTY_CARD_CONTENT)) return 0;
      const row = await this.versionsRepository.insert({
        projectId,
        version: (newest?.version ?? 0) + 1,
        content: merged,
        edited,
        derivedFrom: { branch: source.branch, commit: source.commit, at: new Date().toISOString() },
        author: null,
        note: null,
      });
      return row.version;
    });
  }
}

function emptyCard(project: string): ProjectCardView {
  return {
    project,
    version: 0,
    content: EMPTY_CARD_CONTENT,
    edited: [],
    derivedFrom: null,
    updatedAt: null,
    updatedBy: null,
    note: null,
  };
}

function summaryOf(row: Omit<StoredCardVersion, 'content'>): ProjectCardVersionSummary {
  const author = row.authorUserId !== null || row.authorAgentId !== null;
  return {
    version: row.version,
    edited: sectionsOf(row.edited),
    derivedFrom: row.derivedFrom,
    updatedAt: row.createdAt.toISOString(),
    updatedBy: author ? { userId: row.authorUserId, agentId: row.authorAgentId } : null,
    note: row.note,
  };
}

function viewOf(project: string, row: StoredCardVersion): ProjectCardView {
  return { project, ...summaryOf(row), content: contentOf(row.content) };
}
