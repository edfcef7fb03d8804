import { Injectable } from '@nestjs/common';
import { type SessionPrincipal } from '@cairn/access';
import { type ProjectRef, ProjectResolver } from '@cairn/projects';
import {
  type Explanation,
  HybridSearch,
  type QueryVector,
  type SearchMode,
  type SearchReport,
  vectorSearchSettings,
} from '@cairn/search';
import { TenantContext, TenantTransaction } from '@cairn/tenancy';
import { AccessRecorder } from './access-recorder.service';
import { type MemoryFilter, type MemoryScope } from './contract/memory-filter';
import { type Memory } from './contract/memory.types';
import { MemoriesRepository } from './memories.repository';

export interface RecallInput {
  readonly query: string;
  readonly mode: SearchMode;
  readonly limit: number;
  readonly explain: boolean;
  readonly filter: Omit<MemoryFilter, 'scope'> & { readonly scope?: 'project' | 'tenant' | 'all' };
  /** Count this as use of the results (access count, confidence; written within a second). Default true; false for a peek. */
  readonly recordAccess?: boolean;
}

export interface RecallHit {
  readonly memory: Memory;
  readonly score: number;
  readonly explain?: Explanation;
}

export interface RecallResult {
  readonly results: RecallHit[];
  readonly report: SearchReport;
}

/** Memory search: hybrid by default, every result flagged stale where it is. */
@Injectable()
export class MemoryRecall {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly resolver: ProjectResolver,
    private readonly search: HybridSearch,
    private readonly memories: MemoriesRepository,
    private readonly access: AccessRecorder,
    private readonly tenant: TenantContext,
  ) {}

  async recall(projectSlug: string, input: RecallInput): Promise<RecallResult> {
    // The model call comes first, outside the transaction: it holds no pooled connection.
    const queryVector = await this.search.embedQuery(input.query, input.mode);
    return this.tx.run(async () => {
      const project = await this.resolver.resolve(projectSlug);
      const which = input.filter.scope ?? 'all';
      const scope = { projectIds: which === 'tenant' ? [] : [project.id], includeTenantWide: which !== 'project' };
      return this.rankWithin(scope, input, queryVector);
    }, vectorSearchSettings(input.limit));
  }

  /** Across every project the token may read (optionally narrowed), plus tenant-wide memories. */
  async recallAcross(
    principal: SessionPrincipal,
    projects: readonly string[] | undefined,
    input: RecallInput,
  ): Promise<RecallResult & { projects: ProjectRef[] }> {
    const queryVector = await this.search.embedQuery(input.query, input.mode);
    return this.tx.run(async () => {
      const allowed = await this.resolver.resolveMany(principal.projects);
      const chosen = projects ? allowed.filter((project) => projects.includes(project.slug)) : allowed;
      const result = await this.rankWithin(
        { projectIds: chosen.map((project) => project.id), includeTenantWide: true },
        input,
        queryVector,
      );
      return { ...result, projects: chosen };
    }, vectorSearchSettings(input.limit));
  }

  private async rankWithin(scope: MemoryScope, input: RecallInput, queryVector: QueryVector): Promise<RecallResult> {
    const { corpus, params } = this.memories.rankingCorpus({ ...input.filter, scope });
    const { ranked, report } = await this.search.rank(corpus, params, {
      query: input.query,
      mode: input.mode,
      limit: input.limit,
      queryVector,
    });
    const ids = ranked.map((hit) => hit.id);
    const byId = new Map((await this.memories.findManyById(ids)).map((m) => [m.id, m]));
    if (input.recordAccess !== false) this.access.record(this.tenant.require('MemoryRecall'), ids);
    const results = ranked.flatMap((hit) => {
      const memory = byId.get(hit.id);
      if (!memory) return [];
      return [{ memory, score: hit.score, ...(input.explain ? { explain: hit.explain } : {}) }];
    });
    return { results, report };
  }
}
