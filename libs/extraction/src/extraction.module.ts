import { Module } from '@nestjs/common';
import { MemoryModule } from '@cairn/memory';
import { ProjectsModule } from '@cairn/projects';
import { RetentionModule } from '@cairn/retention';
import { SecretsModule } from '@cairn/secrets';
import { FactExtractor } from './fact-extractor.service';
import { ProposalsRepository } from './proposals.repository';
import { ProposalsService } from './proposals.service';
import { TenantSettingsService } from './tenant-settings.service';

/**
 * Proposals, tenant settings and the fact extractor: services only. Extraction requests are
 * GenerationModule's generation requests; the extractor needs `GENERATOR` (ProvidersModule, global).
 */
@Module({
  imports: [ProjectsModule, MemoryModule, SecretsModule, RetentionModule],
  providers: [ProposalsRepository, ProposalsService, TenantSettingsService, FactExtractor],
  exports: [ProposalsRepository, ProposalsService, TenantSettingsService, FactExtractor],
})
export class ExtractionModule {}
