import { Module } from '@nestjs/common';
import { MemoryModule } from '@cairn/memory';
import { ProjectsModule } from '@cairn/projects';
import { SecretsModule } from '@cairn/secrets';
import { MemoryPromotions } from './memory-promotions.service';
import { ReviewDecisions } from './review-decisions.service';
import { ReviewNotices } from './review-notices.service';
import { ReviewQueue } from './review-queue.service';

/**
 * The review queue of team memory (issue 14 §1): promotions to a wider scope and
 * contradictions between authors (queued by @cairn/memory's writer), decided by a project
 * orchestrator or a tenant admin; the briefing tells authors the outcome (ReviewNotices).
 */
@Module({
  imports: [MemoryModule, ProjectsModule, SecretsModule],
  providers: [MemoryPromotions, ReviewDecisions, ReviewQueue, ReviewNotices],
  exports: [MemoryPromotions, ReviewDecisions, ReviewQueue, ReviewNotices],
})
export class MemoryReviewModule {}
