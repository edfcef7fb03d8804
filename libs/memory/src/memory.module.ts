import { Module } from '@nestjs/common';
import { ProjectsModule } from '@cairn/projects';
import { ContradictionsService } from './contradictions.service';
import { MemoryEmbeddingTarget } from './memory-embedding.target';
import { MemoryReader } from './memory-reader.service';
import { MemoryRecall } from './memory-recall.service';
import { MemoryLinks } from './memory-relations.service';
import { MemoryRelationsRepository } from './memory-relations.repository';
import { MemoryVersionsRepository } from './memory-versions.repository';
import { MemoryWriter } from './memory-writer.service';
import { MemoriesRepository } from './memories.repository';

/** Long-term memories: services only; `MemoryHttpModule` mounts the REST API. */
@Module({
  imports: [ProjectsModule],
  providers: [
    ContradictionsService,
    MemoriesRepository,
    MemoryEmbeddingTarget,
    MemoryLinks,
    MemoryReader,
    MemoryRecall,
    MemoryRelationsRepository,
    MemoryVersionsRepository,
    MemoryWriter,
  ],
  exports: [
    MemoriesRepository,
    MemoryLinks,
    MemoryReader,
    MemoryRecall,
    MemoryRelationsRepository,
    MemoryVersionsRepository,
    MemoryWriter,
  ],
})
export class MemoryModule {}
