import { Module } from '@nestjs/common';
import { GenerationModule } from '@cairn/generation';
import { ExtractionModule } from '../extraction.module';
import { ExtractionController } from './extraction.controller';
import { TenantSettingsController } from './tenant-settings.controller';

/** Extract, proposal review and tenant settings routes; api app only. */
@Module({
  imports: [ExtractionModule, GenerationModule],
  controllers: [ExtractionController, TenantSettingsController],
})
export class ExtractionHttpModule {}
