import { Injectable, type OnModuleInit } from '@nestjs/common';
import { type JobHandler, JobHandlers, type JobPayload, type JobResult } from '@cairn/jobs';
import { KnowledgeService } from '@cairn/knowledge';
import { MemoryHygiene } from '@cairn/memory';
import { ProjectResolver } from '@cairn/projects';
import { TenantContext, type TenantRef, TenantsService, TenantTransaction, toTenantRef } from '@cairn/tenancy';

type TenantTask = 'retention-purge' | 'confidence-decay' | 'duplicate-scan';

/** Memories unused this long lose 5% of their confidence per daily run, down to 0.1. */
const DECAY = { olderThanDays: 30, factor: 0.95, floor: 0.1 };

/**
 * The per-tenant maintenance tasks that are the memory and knowledge libraries' own
 * operations run on a schedule: retention purge by tier, confidence decay (pinned memories
 * exempt), and the duplicate scan whose candidates `GET …/memories/duplicates?source=scan` lists.
 */
@Injectable()
export class TenantMaintenanceHandlers implements OnModuleInit {
  constructor(
    private readonly handlers: JobHandlers,
    private readonly tenants: TenantsService,
    private readonly context: TenantContext,
    private readonly tx: TenantTransaction,
    private readonly projects: ProjectResolver,
    private readonly knowledge: KnowledgeService,
    private readonly hygiene: MemoryHygiene,
  ) {}

  onModuleInit(): void {
    const task = <N extends TenantTask>(
      name: N,
      run: (tenant: TenantRef) => Promise<Record<string, number>>,
    ): JobHandler<'maintenance', N> => ({
      queue: 'maintenance',
      name,
      handle: (payload: JobPayload<'maintenance', N>) => this.forTenant(payload.tenantId, run),
    });
    this.handlers.register(task('retention-purge', () => this.purge()));
    this.handlers.register(task('confidence-decay', () => this.decay()));
    this.handlers.register(task('duplicate-scan', () => this.scanDuplicates()));
  }

  private async forTenant(
    tenantId: string,
    run: (tenant: TenantRef) => Promise<Record<string, number>>,
  ): Promise<JobResult> {
    const found = await this.tenants.findLiveById(tenantId);
    if (!found) return { status: 'skipped', detail: 'tenant no longer exists' };
    const tenant = toTenantRef(found);
    return { status: 'done', counts: await this.context.run(tenant, () => run(tenant)) };
  }

  private async purge(): Promise<Record<string, number>> {
    const result = await this.knowledge.purge();
    return { ...result.documents, chunks: result.chunks };
  }

  private async decay(): Promise<Record<string, number>> {
    return { decayed: await this.hygiene.decayAll(DECAY) };
  }

  private async scanDuplicates(): Promise<Record<string, number>> {
    const projects = await this.tx.run(() => this.projects.resolveMany('*'));
    let pairs = 0;
    for (const project of projects) pairs += await this.hygiene.recordScan(project.slug);
    return { projects: projects.length, pairs };
  }
}
