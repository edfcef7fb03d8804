import { Module } from '@nestjs/common';
import { MemoryModule } from '../memory.module';
import { ContentLimit } from './content-limit';
import { MemoriesController } from './memories.controller';
import { MemoryLinksController } from './memory-links.controller';
import { MemoryRecallController } from './memory-recall.controller';

/** The memory REST API (`/v1/projects/{project}/memories…`); the api app mounts it. */
@Module({
  imports: [MemoryModule],
  controllers: [MemoryLinksController, MemoryRecallController, MemoriesController],
  providers: [ContentLimit],
})
export class MemoryHttpModule {}
