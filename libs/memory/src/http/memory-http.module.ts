import { Module } from '@nestjs/common';
import { MemoryModule } from '../memory.module';
import { MemoriesController } from './memories.controller';
import { MemoryLinksController } from './memory-links.controller';
import { MemoryRecallController } from './memory-recall.controller';
import { MemoryTopicsController } from './memory-topics.controller';

/**
 * The memory REST API (`/v1/projects/{project}/memories…`); the api app mounts it. Hygiene,
 * the change feed and export/import have modules of their own (memory-hygiene, memory-sync).
 */
@Module({
  imports: [MemoryModule],
  controllers: [MemoryLinksController, MemoryRecallController, MemoryTopicsController, MemoriesController],
})
export class MemoryHttpModule {}
