import { Injectable, type OnModuleInit } from '@nestjs/common';
import { TenantMoveSteps } from '@cairn/tenancy';
import { AuditOutboxRepository } from './audit-outbox.repository';

/**
 * A tenant's audit outbox rows live beside its schema on its cluster (a tool call writes its row
 * in its own tenant transaction), so a tenant move carries them: the outbox is audit's, so audit
 * registers the step (TenantMoveSteps, like the deletion steps).
 */
@Injectable()
export class AuditOutboxMove implements OnModuleInit {
  constructor(
    private readonly steps: TenantMoveSteps,
    private readonly outbox: AuditOutboxRepository,
  ) {}

  onModuleInit(): void {
    this.steps.register('audit', async (move) => ({ outboxRows: await this.outbox.carry(move) }));
  }
}
