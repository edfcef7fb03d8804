import { Injectable } from '@nestjs/common';
import { AuditLogService } from '@cairn/audit';
import { type JobResult } from '@cairn/jobs';
import { KnowledgeService } from '@cairn/knowledge';
import { IDEMPOTENCY_KEY_HOURS, IdempotencyKeysRepository } from '@cairn/memory';
import { MemoryHygiene } from '@cairn/memory-hygiene';
import { ProjectResolver } from '@cairn/projects';
import { RetentionSettings } from '@cairn/retention';
import { type TenantRef, TenantTransaction } from '@cairn/tenancy';

const DAY_MS = 86_400_000;
/** Memories unused this long lose 5% of their confidence per daily run, down to 0.1. */
const DECAY = { olderThanDays: 30, factor: 0.95, floor: 0.1 };

/**
 * The per-tenant maintenance tasks that are the memory, knowledge and audit libraries' own
 * operations run on a schedule: retention purge by tier (and of audit entries past the tenant's
 * audit retention, and of memory_store idempotency keys past 24 hours), confidence decay (pinned
 * memories exempt), and the duplicate scan whose candidates `GET …/memories/duplicates?source=scan`
 * lists. Each runs in the tenant the job registry entered (a tenant deleted since the job was
 * scheduled is skipped there); retention is the tenant's own where it chose one
 * (`PATCH /v1/tenants/{slug}/settings`), the installation's otherwise, read in that context.
 */
@Injectable()
export class TenantMaintenance {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly projects: ProjectResolver,
    private readonly knowledge: KnowledgeService,
    private readonly hygiene: MemoryHygiene,
    private readonly auditLog: AuditLogService,
    private readonly idempotencyKeys: IdempotencyKeysRepository,
    private readonly retention: RetentionSettings,
  ) {}

  async purge(tenant: TenantRef): Promise<JobResult> {
    // The knowledge base reads the tenant's days for its tiers itself (its purge route does too).
    const result = await this.knowledge.purge();
    const days = (await this.tx.run(() => this.retention.effective())).auditLogDays;
    const auditEntries = days > 0 ? await this.auditLog.prune(tenant.schema, new Date(Date.now() - days * DAY_MS)) : 0;
    // A key answers repeats for a day; a client retrying later than that stores anew.
    const cutoff = new Date(Date.now() - IDEMPOTENCY_KEY_HOURS * 3_600_000);
    const idempotencyKeys = await this.tx.run(() => this.idempotencyKeys.prune(cutoff));
    return {
      status: 'done',
      counts: { ...result.documents, chunks: result.chunks, auditEntries, idempotencyKeys },
    };
  }

  async decay(): Promise<JobResult> {
    return { status: 'done', counts: { decayed: await this.hygiene.decayAll(DECAY) } };
  }

  async scanDuplicates(): Promise<JobResult> {
    const projects = await this.tx.run(() => this.projects.resolveMany('*'));
    let pairs = 0;
    for (const project of projects) pairs += await this.hygiene.recordScan(project.slug);
    return { status: 'done', counts: { projects: projects.length, pairs } };
  }
}
