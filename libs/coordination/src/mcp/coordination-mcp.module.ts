import { Module } from '@nestjs/common';
import { CoordinationModule } from '../coordination.module';
import { BroadcastAckTool } from './broadcast-ack.tool';
import { BroadcastPostTool } from './broadcast-post.tool';
import { BroadcastReadTool } from './broadcast-read.tool';
import { BroadcastVerifyTool } from './broadcast-verify.tool';

/** broadcast_post, broadcast_read, broadcast_ack, broadcast_verify in the MCP gateway (toolset coordination). */
@Module({
  imports: [CoordinationModule],
  providers: [BroadcastPostTool, BroadcastReadTool, BroadcastAckTool, BroadcastVerifyTool],
})
export class CoordinationMcpModule {}
