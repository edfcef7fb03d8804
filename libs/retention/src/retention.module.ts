import { Module } from '@nestjs/common';
import { RetentionSettings } from './retention-settings.service';

/** Per-tenant retention settings; the tenancy and configuration it reads are global. */
@Module({
  providers: [RetentionSettings],
  exports: [RetentionSettings],
})
export class RetentionModule {}
