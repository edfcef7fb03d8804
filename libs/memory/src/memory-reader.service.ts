import { Injectable } from '@nestjs/common';
import { ProjectResolver } from '@cairn/projects';
import { TenantTransaction } from '@cairn/tenancy';
import { visibleIn } from './memory-access';
import { type ListFilter } from './contract/memory-filter';
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

/** Get, list, history, relations and staleness reads, each in one tenant transaction. */
@Injectable()
export class MemoryReader {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly resolver: ProjectResolver,
    private readonly memories: MemoriesRepository,
    private readonly versions: MemoryVersionsRepository,
    private readonly relations: MemoryRelationsRepository,
  ) {}

  get(projectSlug: string, id: string): Promise<Memory> {
    return this.tx.run(async () =>
      visibleIn(await this.memories.findById(id), await this.resolver.resolve(projectSlug)),
    );
  }

  list(
    projectSlug: string,
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
      };
      const rows = await this.memories.list({ ...filter, scope }, limit + 1, cursor);
      const items = rows.slice(0, limit);
      const last = items[items.length - 1];
      return { items, nextCursor: rows.length > limit && last ? last.id : null };
    });
  }

  history(projectSlug: string, id: string): Promise<{ memory: Memory; versions: MemoryVersion[] }> {
    return this.tx.run(async () => {
      const memory = visibleIn(await this.memories.findById(id), await this.resolver.resolve(projectSlug));
      return { memory, versions: await this.versions.history(id) };
    });
  }

  /** Related memories in both directions, limited to what the project may see. */
  related(projectSlug: string, id: string, type?: RelationType): Promise<RelatedMemory[]> {
    return this.tx.run(async () => {
      const project = await this.resolver.resolve(projectSlug);
      visibleIn(await this.memories.findById(id), project);
      const links = await this.relations.touching(id, type);
      const others = await this.memories.findManyById(
        links.map((link) => (link.fromId === id ? link.toId : link.fromId)),
      );
      const byId = new Map(
        others.filter((memory) => memory.projectId === null || memory.projectId === project.id).map((m) => [m.id, m]),
      );
      return links.flatMap((relation) => {
        const direction = relation.fromId === id ? 'outgoing' : 'incoming';
        const memory = byId.get(direction === 'outgoing' ? relation.toId : relation.fromId);
        return memory ? [{ relation, direction, memory }] : [];
      });
    });
  }

  /** Stale memories of the project (and tenant-wide ones), newest first. */
  stale(projectSlug: string, limit: number, cursor?: string) {
    return this.list(projectSlug, { stale: true }, limit, cursor);
  }
}
