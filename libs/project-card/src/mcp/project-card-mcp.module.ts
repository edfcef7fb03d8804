import { Module } from '@nestjs/common';
import { ProjectCardModule } from '../project-card.module';
import { ProjectCardEditTool } from './project-card-edit.tool';
import { ProjectCardTool } from './project-card.tool';

/** project_card and project_card_edit (toolset harness) in the MCP gateway. */
@Module({
  imports: [ProjectCardModule],
  providers: [ProjectCardTool, ProjectCardEditTool],
})
export class ProjectCardMcpModule {}
