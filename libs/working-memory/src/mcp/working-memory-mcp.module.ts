import { Module } from '@nestjs/common';
import { ProjectsModule } from '@cairn/projects';
import { WorkingMemoryModule } from '../working-memory.module';
import { BriefingResource } from './briefing.resource';
import { ForgetTool } from './forget.tool';
import { RecallContextTool } from './recall-context.tool';
import { RememberTool } from './remember.tool';
import { SessionEventTool } from './session-event.tool';
import { SessionStartPrompt } from './session-start.prompt';

/** Working memory, session events and the briefing in the MCP gateway (toolset context). */
@Module({
  imports: [WorkingMemoryModule, ProjectsModule],
  providers: [RememberTool, ForgetTool, RecallContextTool, SessionEventTool, BriefingResource, SessionStartPrompt],
})
export class WorkingMemoryMcpModule {}
