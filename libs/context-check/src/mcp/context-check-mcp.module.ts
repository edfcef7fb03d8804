import { Module } from '@nestjs/common';
import { ContextCheckModule } from '../context-check.module';
import { ContextCheckTool } from './context-check.tool';

/** context_check (toolset harness) in the MCP gateway. */
@Module({
  imports: [ContextCheckModule],
  providers: [ContextCheckTool],
  exports: [ContextCheckModule],
})
export class ContextCheckMcpModule {}
