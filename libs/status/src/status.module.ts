import { Module } from '@nestjs/common';
import { EmbeddingsModule, EmbeddingTargetsModule } from '@cairn/embeddings';
import { SearchStatusReader } from './search-status';
import { StatusTool } from './status.tool';

/**
 * Service status for agents: the `status` tool (who the token is, whether search is hybrid or
 * keyword-only and why, the embedding model, the server version). A capability of its own
 * so the MCP framework (`@cairn/mcp`) does not depend on the embedding stack.
 */
@Module({
  imports: [EmbeddingsModule, EmbeddingTargetsModule],
  providers: [SearchStatusReader, StatusTool],
})
export class StatusMcpModule {}
