import { Module } from '@nestjs/common';
import { EmbeddingsModule, EmbeddingTargetsModule } from '@cairn/embeddings';
import { SearchStatusReader } from './search-status.service';
import { StatusReport } from './status-report.service';

/**
 * Service status for agents: whether search is hybrid or keyword-only and why, the embedding
 * model, where the MCP endpoint is. A capability of its own so the MCP framework (`@cairn/mcp`)
 * does not depend on the embedding stack.
 */
@Module({
  imports: [EmbeddingsModule, EmbeddingTargetsModule],
  providers: [SearchStatusReader, StatusReport],
  exports: [SearchStatusReader, StatusReport],
})
export class StatusModule {}
