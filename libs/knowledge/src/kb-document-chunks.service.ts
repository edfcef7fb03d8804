import { Injectable } from '@nestjs/common';
import { assertProjectAccess, type SessionPrincipal } from '@cairn/access';
import { NotFoundError } from '@cairn/common';
import { ProjectResolver } from '@cairn/projects';
import { TenantTransaction } from '@cairn/tenancy';
import { type DocumentChunkPage } from './contract/kb.types';
import { KbChunksRepository } from './kb-chunks.repository';
import { KbDocumentsRepository } from './kb-documents.repository';

/**
 * Reading one document as it was chunked (what search matches and returns), a page at a time:
 * people checking what an agent indexed see the pieces, not only the hits of a query.
 */
@Injectable()
export class KbDocumentChunks {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly projects: ProjectResolver,
    private readonly documents: KbDocumentsRepository,
    private readonly chunks: KbChunksRepository,
  ) {}

  /** 404 for a document outside the project; `after` is the last ordinal of the previous page. */
  read(
    projectSlug: string,
    principal: SessionPrincipal,
    id: string,
    page: { after?: number; limit: number },
  ): Promise<DocumentChunkPage> {
    assertProjectAccess(principal, projectSlug);
    return this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      const document = await this.documents.find(project.id, id);
      if (!document) throw new NotFoundError('Document');
      // One more than asked says whether another page follows.
      const rows = await this.chunks.ofDocument(project.id, id, { after: page.after ?? -1, limit: page.limit + 1 });
      const items = rows.slice(0, page.limit);
      const last = items[items.length - 1];
      return {
        document: { ...document, project: project.slug },
        items,
        nextAfter: rows.length > page.limit && last ? last.ordinal : null,
      };
    });
  }
}
