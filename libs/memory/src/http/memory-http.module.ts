import { Module } from '@nestjs/common';
import { MemoryModule } from '../memory.module';
import { MemoriesController } from './memories.controller';
import { MemoryLinksController } from './memory-links.controller';
import { MemoryRecallController } from './memory-recall.controller';
import { MemoryHygieneController } from '../hygiene/memory-hygiene.controller';
import { MemoryChangesController } from '../sync/memory-changes.controller';
import { MemoryTransferController } from '../sync/memory-transfer.controller';
import { NdjsonBodyParser } from '../sync/ndjson-body.parser';

/** The memory REST API (`/v1/projects/{project}/memories…`); the api app mounts it. */
@Module({
  imports: [MemoryModule],
  controllers: [
    MemoryLinksController,
    MemoryRecallController,
    MemoriesController,
    MemoryChangesController,
    MemoryHygieneController,
    MemoryTransferController,
  ],
  providers: [NdjsonBodyParser],
})
export class MemoryHttpModule {}
