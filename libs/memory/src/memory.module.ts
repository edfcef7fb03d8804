import { Module } from '@nestjs/common';
import { ProjectsModule } from '@cairn/projects';
import { SecretsModule } from '@cairn/secrets';
import { AccessRecorder } from './access-recorder.service';
import { ContentLimit } from './content-limit.service';
import { ContradictionCandidatesRepository } from './contradiction-candidates.repository';
import { ContradictionsService } from './contradictions.service';
import { MemoryEmbeddingJobs } from './memory-embedding-jobs.service';
import { MemoryEmbeddingTarget } from './memory-embedding-target.service';
import { MemoryEmbeddingsRepository } from './memory-embeddings.repository';
import { MemoryLookup } from './memory-lookup.service';
import { MemoryReader } from './memory-reader.service';
import { MemorySettings } from './memory-settings.service';
import { MemorySettingsRepository } from './memory-settings.repository';
import { MemoryRecall } from './memory-recall.service';
import { MemoryRecords } from './memory-records.service';
import { MemoryLinks } from './memory-relations.service';
import { MemoryRelationsRepository } from './memory-relations.repository';
import { MemoryShareGrantsRepository } from './memory-share-grants.repository';
import { MemoryStoreDecision } from './memory-store-decision.service';
import { MemoryStorePersistence } from './memory-store-persistence.service';
import { MemoryStorePreparation } from './memory-store-preparation.service';
import { MemoryStore } from './memory-store.service';
import { MemorySupersession } from './memory-supersession.service';
import { MemoryUpdate } from './memory-update.service';
import { MemoryVersionsRepository } from './memory-versions.repository';
import { SensitiveContent } from './sensitive-content.service';
import { MemoryWriter } from './memory-writer.service';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { MemoriesRepository } from './memories.repository';

/** Long-term memories: services and repositories; `MemoryHttpModule` and `MemoryMcpModule` serve them. */
@Module({
  imports: [ProjectsModule, SecretsModule],
  providers: [
    AccessRecorder,
    ContentLimit,
    ContradictionCandidatesRepository,
    ContradictionsService,
    MemoriesRepository,
    MemoryEmbeddingJobs,
    MemoryEmbeddingTarget,
    MemoryEmbeddingsRepository,
    MemoryLinks,
    MemoryLookup,
    MemoryReader,
    MemoryRecall,
    MemoryRecords,
    MemorySettings,
    MemorySettingsRepository,
    SensitiveContent,
    MemoryRelationsRepository,
    MemoryShareGrantsRepository,
    MemoryStore,
    MemoryStoreDecision,
    MemoryStorePersistence,
    MemoryStorePreparation,
    MemorySupersession,
    MemoryUpdate,
    MemoryVersionsRepository,
    MemoryWriter,
    IdempotencyKeysRepository,
  ],
  exports: [
    AccessRecorder,
    IdempotencyKeysRepository,
    MemoryLinks,
    MemoryLookup,
    MemoryReader,
    MemoryRecall,
    MemoryRecords,
    MemorySettings,
    MemoryWriter,
  ],
})
export class MemoryModule {}
