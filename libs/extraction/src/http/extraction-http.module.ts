import { Module } from '@nestjs/common';
import { GenerationModule } from '@cairn/generation';
import { ExtractionModule } from '../extraction.module';
import { TenantSettingsAdmin } from '../tenant-settings-admin.service';
import { ExtractionController } from './extraction.controller';
import { TenantSettingsController } from './tenant-settings.controller';

/** Extract, proposal review and tenant settings routes (and the audited settings writer); api app only. */
@Module({
  imports: [ExtractionModule, GenerationModule],
  controllers: [ExtractionController, TenantSettingsController],
  providers: [TenantSettingsAdmin],
})
export class ExtractionHttpModule {}
