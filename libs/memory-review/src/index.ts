// The capability module and its adapters' modules.
export { MemoryReviewModule } from './memory-review.module';
export { MemoryReviewHttpModule } from './http/memory-review-http.module';
export { MemoryReviewMcpModule } from './mcp/memory-review-mcp.module';

// Services other libraries use: the briefing tells authors what became of their memories.
export { ReviewNotices } from './review-notices.service';

// The contract.
export {
  type Decision,
  MEMORY_SCOPES,
  type MemoryVisibility,
  type QueuedReview,
  type Resolution,
  RESOLUTIONS,
  type Review,
  type ReviewKind,
  type ReviewOutcome,
  type ReviewStatus,
} from './contract/memory-review.types';
