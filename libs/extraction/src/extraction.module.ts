import { Module } from '@nestjs/common';
import { GenerationModule } from '@cairn/generation';
import { MemoryModule } from '@cairn/memory';
import { ProjectsModule } from '@cairn/projects';
import { ExtractFactsJobHandler } from './extract-facts.job-handler';
import { FactExtractor } from './fact-extractor';
import { ExtractionController } from './http/extraction.controller';
import { TenantSettingsController } from './http/tenant-settings.controller';
import { ProposalsRepository } from './proposals.repository';
import { ProposalsService } from './proposals.service';
import { TenantSettingsService } from './tenant-settings';

/** Proposals and tenant settings: services only. Requests are GenerationModule's generation requests. */
@Module({
  imports: [ProjectsModule, MemoryModule],
  providers: [ProposalsRepository, ProposalsService, TenantSettingsService],
  exports: [ProposalsRepository, ProposalsService, TenantSettingsService],
})
export class ExtractionModule {}

/** Extract, proposal review and tenant settings routes; api app only. */
@Module({
  imports: [ExtractionModule, GenerationModule],
  controllers: [ExtractionController, TenantSettingsController],
})
export class ExtractionHttpModule {}

/** The `extract-facts` handler, registered on init; worker app only. Needs `GENERATOR` (ProvidersModule, global). */
@Module({
  imports: [ExtractionModule, GenerationModule, MemoryModule],
  providers: [FactExtractor, ExtractFactsJobHandler],
})
export class ExtractionWorkerModule {}
