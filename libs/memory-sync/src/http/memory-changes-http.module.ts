import { Module } from '@nestjs/common';
import { MemorySyncModule } from '../memory-sync.module';
import { MemoryChangesController } from './memory-changes.controller';

/**
 * The change feed over REST (`GET …/memories/changes`). A module apart from export/import so
 * the api app can mount the memory routes in their established order (the OpenAPI document
 * lists the change feed, then hygiene, then export/import).
 */
@Module({
  imports: [MemorySyncModule],
  controllers: [MemoryChangesController],
})
export class MemoryChangesHttpModule {}
