import { Module } from '@nestjs/common';
import { TenantAuditLogModule } from '@cairn/audit';
import { KnowledgeModule } from '@cairn/knowledge';
import { MemoryModule } from '@cairn/memory';
import { ProjectsModule } from '@cairn/projects';
import { MaintenanceScheduler } from './maintenance-scheduler.job-handler';
import { TenantMaintenanceHandlers } from './tenant-maintenance.job-handler';

/** Repeatable maintenance, for the worker app only (the sweep lives with the embeddings). */
@Module({
  imports: [MemoryModule, KnowledgeModule, ProjectsModule, TenantAuditLogModule],
  providers: [MaintenanceScheduler, TenantMaintenanceHandlers],
})
export class MaintenanceWorkerModule {}
