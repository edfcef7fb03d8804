import { Inject, Injectable } from '@nestjs/common';
import { agentKeyOf, assertProjectAccess, authorOf, type SessionPrincipal } from '@cairn/access';
import { NotFoundError } from '@cairn/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { MemoryWriter } from '@cairn/memory';
import { type ProjectRef, ProjectResolver } from '@cairn/projects';
import { SecretRedaction } from '@cairn/secrets';
import { TenantTransaction } from '@cairn/tenancy';
import { parseInput, type RememberInput, rememberSchema, wmKeySchema } from './contract/working-memory.fields';
import { WorkingMemoryRepository } from './working-memory.repository';
import { type EvictedEntry, type RememberResult, type WorkingMemoryEntry } from './contract/working-memory.types';

/**
 * remember / forget / list: an agent's private scratchpad in a project (DESIGN §4). Entries
 * belong to `agentKeyOf(principal)` and no other agent ever sees them. The cap is enforced
 * on every write; what does not fit moves into long-term memory, never silently away.
 */
@Injectable()
export class WorkingMemoryService {
  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    private readonly tx: TenantTransaction,
    private readonly projects: ProjectResolver,
    private readonly entries: WorkingMemoryRepository,
    private readonly writer: MemoryWriter,
    private readonly secrets: SecretRedaction,
  ) {}

  /** Upserts the entry; when that takes the agent over the cap, evicts in the same transaction. */
  async remember(projectSlug: string, principal: SessionPrincipal, input: RememberInput): Promise<RememberResult> {
    assertProjectAccess(principal, projectSlug);
    const parsed = parseInput(rememberSchema, input);
    // The key names the entry in later requests (forget, replace): refused, not redacted.
    await this.secrets.refuseInIdentifiers({ key: parsed.key });
    const clean = await this.secrets.redact([parsed.value]);
    const entry = { ...parsed, value: clean.texts[0] };
    const agentKey = agentKeyOf(principal);
    const result = await this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      await this.entries.lockAgent(project.id, agentKey);
      await this.secrets.keep(clean.sealed, {
        projectId: project.id,
        sourceTable: 'working_memory',
        sourceId: `${agentKey}/${entry.key}`,
        writer: authorOf(principal),
      });
      const stored = await this.entries.upsert(project.id, agentKey, entry);
      const excess = (await this.entries.count(project.id, agentKey)) - this.config.memory.workingMemoryCap;
      const evicted = excess > 0 ? await this.evict(project, principal, agentKey, stored.key, excess) : [];
      return { entry: stored, evicted };
    });
    return { ...result, redacted: clean.redacted };
  }

  async forget(projectSlug: string, principal: SessionPrincipal, key: string): Promise<void> {
    assertProjectAccess(principal, projectSlug);
    const valid = parseInput(wmKeySchema, key);
    await this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      const deleted = await this.entries.delete(project.id, agentKeyOf(principal), [valid]);
      if (deleted === 0) throw new NotFoundError(`Working-memory entry "${valid}"`);
    });
  }

  /** The calling agent's entries, most important first. */
  list(projectSlug: string, principal: SessionPrincipal): Promise<WorkingMemoryEntry[]> {
    assertProjectAccess(principal, projectSlug);
    return this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      return this.entries.list(project.id, agentKeyOf(principal));
    });
  }

  get cap(): number {
    return this.config.memory.workingMemoryCap;
  }

  /**
   * Moves the `count` least important, least recently written entries (never the one just
   * written) into long-term memory through MemoryWriter, so contradiction checks and
   * embedding apply to them like to any stored fact. MemoryWriter's transaction joins ours:
   * an eviction that fails to store rolls the whole remember back, and its embedding jobs
   * wait for our commit.
   */
  private async evict(
    project: ProjectRef,
    principal: SessionPrincipal,
    agentKey: string,
    keep: string,
    count: number,
  ): Promise<EvictedEntry[]> {
    const victims = await this.entries.evictionCandidates(project.id, agentKey, keep, count);
    const evicted: EvictedEntry[] = [];
    for (const victim of victims) {
      const { memory } = await this.writer.store(project.slug, principal, {
        content: `${victim.key}: ${victim.value}`,
        category: 'other',
        tags: ['working-memory', 'evicted'],
        keywords: [victim.key],
        importance: victim.importance,
        confidence: 0.8,
        source: null,
        pinned: false,
        // What the agent would get storing it itself: the tenant's agentDefaultScope decides.
        supersedes: [],
      });
      // The memory carries the entry's placeholders: their originals go with it before the entry goes.
      await this.secrets.carry(
        { sourceTable: 'working_memory', sourceId: `${agentKey}/${victim.key}` },
        { projectId: project.id, sourceTable: 'memories', sourceId: memory.id },
      );
      evicted.push({ key: victim.key, memoryId: memory.id });
    }
    await this.entries.delete(
      project.id,
      agentKey,
      victims.map((victim) => victim.key),
    );
    return evicted;
  }
}
