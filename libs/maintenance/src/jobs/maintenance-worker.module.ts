import { Module } from '@nestjs/common';
import { TenantAuditLogModule } from '@cairn/audit';
import { KnowledgeModule } from '@cairn/knowledge';
import { MemoryHygieneModule } from '@cairn/memory-hygiene';
import { ProjectsModule } from '@cairn/projects';
import { MaintenanceScheduler } from './maintenance-scheduler.job-handler';
import { TenantMaintenanceHandlers } from './tenant-maintenance.job-handler';

/** Repeatable maintenance, for the worker app only (the sweep lives with the embeddings). */
@Module({
  imports: [MemoryHygieneModule, KnowledgeModule, ProjectsModule, TenantAuditLogModule],
  providers: [MaintenanceScheduler, TenantMaintenanceHandlers],
})
export class MaintenanceWorkerModule {}
