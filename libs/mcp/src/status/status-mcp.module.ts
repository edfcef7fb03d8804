import { Module } from '@nestjs/common';
import { EmbeddingsModule, EmbeddingTargetsModule } from '@cairn/embeddings';
import { SearchStatusReader } from './search-status';
import { StatusTool } from './status.tool';

/**
 * The `status` tool. Separate from McpModule so the protocol framework itself does not
 * depend on the embedding stack; the gateway imports both.
 */
@Module({
  imports: [EmbeddingsModule, EmbeddingTargetsModule],
  providers: [SearchStatusReader, StatusTool],
})
export class StatusMcpModule {}
