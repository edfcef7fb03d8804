import { Module } from '@nestjs/common';
import { TenantAuditLogModule } from '@cairn/audit';
import { KnowledgeModule } from '@cairn/knowledge';
import { MemoryModule } from '@cairn/memory';
import { MemoryHygieneModule } from '@cairn/memory-hygiene';
import { ProjectsModule } from '@cairn/projects';
import { RetentionModule } from '@cairn/retention';
import { TenantMaintenance } from '../tenant-maintenance.service';
import { ScheduleMaintenanceJobHandler } from './schedule-maintenance.job-handler';
import {
  ConfidenceDecayJobHandler,
  DuplicateScanJobHandler,
  RetentionPurgeJobHandler,
} from './tenant-maintenance.job-handler';

/** Repeatable maintenance, for the worker app only (the sweep lives with the embeddings). */
@Module({
  imports: [MemoryModule, MemoryHygieneModule, KnowledgeModule, ProjectsModule, TenantAuditLogModule, RetentionModule],
  providers: [
    TenantMaintenance,
    ScheduleMaintenanceJobHandler,
    RetentionPurgeJobHandler,
    ConfidenceDecayJobHandler,
    DuplicateScanJobHandler,
  ],
})
export class MaintenanceWorkerModule {}
