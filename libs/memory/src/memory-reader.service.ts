import { Injectable } from '@nestjs/common';
import { ProjectResolver } from '@cairn/projects';
import { TenantTransaction } from '@cairn/tenancy';
import { orNotFound, projectScope } from './memory-access';
import { type ListFilter } from './contract/memory-filter';
import { type MemoryViewer } from './contract/memory-viewer';
import { MemoryRelationsRepository } from './memory-relations.repository';
import { type MemoryVersion, MemoryVersionsRepository } from './memory-versions.repository';
import { type Memory, type MemoryRelation, type RelationType } from './contract/memory.types';
import { MemoriesRepository } from './memories.repository';

export interface RelatedMemory {
  readonly relation: MemoryRelation;
  /** `outgoing` when the asked-about memory is the relation's source. */
  readonly direction: 'outgoing' | 'incoming';
  readonly memory: Memory;
}

/**
 * Get, list, history, relations and staleness reads, each in one tenant transaction, each as
 * `viewer` sees them: a private memory of someone else is "not found".
 */
@Injectable()
export class MemoryReader {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly resolver: ProjectResolver,
    private readonly memories: MemoriesRepository,
    private readonly versions: MemoryVersionsRepository,
    private readonly relations: MemoryRelationsRepository,
  ) {}

  get(projectSlug: string, viewer: MemoryViewer, id: string): Promise<Memory> {
    return this.tx.run(async () =>
      orNotFound(await this.memories.findVisible(id, projectScope(await this.resolver.resolve(projectSlug), viewer))),
    );
  }

  list(
    projectSlug: string,
    viewer: MemoryViewer,
    filter: ListFilter,
    limit: number,
    cursor?: string,
  ): Promise<{ items: Memory[]; nextCursor: string | null }> {
    return this.tx.run(async () => {
      const project = await this.resolver.resolve(projectSlug);
      const which = filter.scope ?? 'all';
      const scope = {
        projectIds: which === 'tenant' ? [] : [project.id],
        includeTenantWide: which !== 'project',
        viewer,
      };
      const rows = await this.memories.list({ ...filter, scope }, limit + 1, cursor);
      const items = rows.slice(0, limit);
      const last = items[items.length - 1];
      return { items, nextCursor: rows.length > limit && last ? last.id : null };
    });
  }

  history(
    projectSlug: string,
    viewer: MemoryViewer,
    id: string,
  ): Promise<{ memory: Memory; versions: MemoryVersion[] }> {
    return this.tx.run(async () => {
      const scope = projectScope(await this.resolver.resolve(projectSlug), viewer);
      const memory = orNotFound(await this.memories.findVisible(id, scope));
      return { memory, versions: await this.versions.history(id) };
    });
  }

  /** Related memories in both directions, limited to what the project may see. */
  related(projectSlug: string, viewer: MemoryViewer, id: string, type?: RelationType): Promise<RelatedMemory[]> {
    return this.tx.run(async () => {
      const scope = projectScope(await this.resolver.resolve(projectSlug), viewer);
      orNotFound(await this.memories.findVisible(id, scope));
      const links = await this.relations.touching(id, type);
      const others = await this.memories.findManyVisible(
        links.map((link) => (link.fromId === id ? link.toId : link.fromId)),
        scope,
      );
      const byId = new Map(others.map((m) => [m.id, m]));
      return links.flatMap((relation) => {
        const direction = relation.fromId === id ? 'outgoing' : 'incoming';
        const memory = byId.get(direction === 'outgoing' ? relation.toId : relation.fromId);
        return memory ? [{ relation, direction, memory }] : [];
      });
    });
  }

  /** Stale memories of the project (and team ones), newest first. */
  stale(projectSlug: string, viewer: MemoryViewer, limit: number, cursor?: string) {
    return this.list(projectSlug, viewer, { stale: true }, limit, cursor);
  }
}
