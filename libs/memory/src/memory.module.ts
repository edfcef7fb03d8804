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
import { MemoryDigest } from './memory-digest.service';
import { MemoryDigestRepository } from './memory-digest.repository';
import { MemoryDuplicatesRepository } from './memory-duplicates.repository';
import { MemoryHygieneRepository } from './memory-hygiene.repository';
import { MemoryLookup } from './memory-lookup.service';
import { MemoryMaintenance } from './memory-maintenance.service';
import { MemoryReader } from './memory-reader.service';
import { MemoryTopics } from './memory-topics.service';
import { MemoryTopicsRepository } from './memory-topics.repository';
import { MemorySettings } from './memory-settings.service';
import { MemoryRecall } from './memory-recall.service';
import { MemoryReviews } from './memory-reviews.service';
import { MemoryReviewsRepository } from './memory-reviews.repository';
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
import { MemoryShares } from './memory-shares.service';
import { MemorySharesRepository } from './memory-shares.repository';
import { MemoryVersionsRepository } from './memory-versions.repository';
import { SensitiveContent } from './sensitive-content.service';
import { MemoryChangesRepository } from './memory-changes.repository';
import { MemoryTransfer } from './memory-transfer.service';
import { MemoryTransferRepository } from './memory-transfer.repository';
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
    MemoryDigest,
    MemoryDigestRepository,
    MemoryDuplicatesRepository,
    MemoryHygieneRepository,
    MemoryLinks,
    MemoryLookup,
    MemoryMaintenance,
    MemoryReader,
    MemoryTopics,
    MemoryTopicsRepository,
    MemoryRecall,
    MemoryRecords,
    MemoryReviews,
    MemoryReviewsRepository,
    MemorySettings,
    SensitiveContent,
    MemoryRelationsRepository,
    MemoryShareGrantsRepository,
    MemoryStore,
    MemoryStoreDecision,
    MemoryStorePersistence,
    MemoryStorePreparation,
    MemorySupersession,
    MemoryUpdate,
    MemoryShares,
    MemorySharesRepository,
    MemoryVersionsRepository,
    MemoryChangesRepository,
    MemoryTransfer,
    MemoryTransferRepository,
    MemoryWriter,
    IdempotencyKeysRepository,
  ],
  exports: [
    AccessRecorder,
    MemoryDigest,
    IdempotencyKeysRepository,
    MemoryLinks,
    MemoryLookup,
    MemoryMaintenance,
    MemoryReader,
    MemoryTopics,
    MemoryRecall,
    MemoryRecords,
    MemoryReviews,
    MemorySettings,
    MemoryShares,
    MemoryTransfer,
    MemoryWriter,
  ],
})
export class MemoryModule {}
