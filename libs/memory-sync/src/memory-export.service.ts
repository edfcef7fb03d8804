import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { type SessionPrincipal } from '@cairn/access';
import {
  type MemoryScope,
  MemoryTransfer,
  type RestoredRelation,
  SYSTEM_VIEWER,
  type Viewer,
  viewerOf,
} from '@cairn/memory';
import { type ProjectRef, ProjectResolver } from '@cairn/projects';
import { type BackedUpSecret, type ExportSecrets, SecretBackup } from '@cairn/secrets';
import { TenantContext, TenantEntry, type TenantRef, TenantTransaction } from '@cairn/tenancy';
import { exportHeaderLine, exportLine } from './contract/export-format';

const PAGE = 500;

export interface MemoryExport {
  readonly project: ProjectRef;
  /** JSON Lines, one chunk per page of memories. */
  readonly stream: Readable;
}

/**
 * Streams a project's memories as JSON Lines (format in export-format.ts). Each page is read
 * in its own short transaction as the client consumes the stream, so a slow client holds no
 * connection or snapshot; pages follow the id order, so every memory that exists throughout
 * the export is written exactly once.
 */
@Injectable()
export class MemoryExporter {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly tenant: TenantContext,
    private readonly entry: TenantEntry,
    private readonly resolver: ProjectResolver,
    private readonly transfer: MemoryTransfer,
    private readonly backup: SecretBackup,
  ) {}

  /** Resolves the project first, so a wrong slug is a 404 rather than a broken stream. */
  async open(
    projectSlug: string,
    principal: SessionPrincipal,
    options: { includeTenantWide: boolean; secrets: ExportSecrets },
  ): Promise<MemoryExport> {
    if (options.secrets === 'ciphertext') this.backup.assertMayBackUp(principal);
    const tenant = this.tenant.require('MemoryExporter.open');
    const project = await this.tx.run(() => this.resolver.resolve(projectSlug));
    // An admin's export is the tenant's backup: every scope, others' private memories included.
    const viewer: Viewer = principal.role === 'admin' ? SYSTEM_VIEWER : viewerOf(principal);
    const scope = { projectIds: [project.id], includeTenantWide: options.includeTenantWide, viewer };
    const stream = Readable.from(this.lines(tenant, project, scope, options.secrets, new Date()), {
      objectMode: false,
    });
    return { project, stream };
  }

  private async *lines(
    tenant: TenantRef,
    project: ProjectRef,
    scope: MemoryScope,
    withSecrets: ExportSecrets,
    exportedAt: Date,
  ) {
    yield `${exportHeaderLine(project.slug, exportedAt)}\n`;
    let after: string | null = null;
    for (;;) {
      // The stream is pulled from socket events, outside the request's async context: the
      // tenant is carried explicitly.
      const { memories, relations, secrets } = await this.entry.transaction(tenant, async () => {
        const page = await this.transfer.exportPage(scope, after, PAGE);
        const ids = page.map((memory) => memory.id);
        return {
          memories: page,
          relations: await this.transfer.exportRelations(ids, scope),
          secrets:
            withSecrets === 'ciphertext'
              ? await this.backup.sealedFor('memories', ids)
              : new Map<string, BackedUpSecret[]>(),
        };
      });
      const byFrom = new Map<string, RestoredRelation[]>();
      for (const relation of relations) byFrom.set(relation.fromId, [...(byFrom.get(relation.fromId) ?? []), relation]);
      if (memories.length > 0) {
        yield memories
          .map((memory) => `${exportLine(memory, byFrom.get(memory.id) ?? [], secrets.get(memory.id))}\n`)
          .join('');
      }
      const last = memories[memories.length - 1];
      if (!last || memories.length < PAGE) return;
      after = last.id;
    }
  }
}
