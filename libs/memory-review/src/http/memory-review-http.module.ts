import { Module } from '@nestjs/common';
import { MemoryReviewModule } from '../memory-review.module';
import { MemoryReviewsController } from './memory-reviews.controller';

/** Promotions and the review queue over REST (`/v1/projects/{project}/memories/{id}/promotions`, `…/reviews`). */
@Module({
  imports: [MemoryReviewModule],
  controllers: [MemoryReviewsController],
})
export class MemoryReviewHttpModule {}
