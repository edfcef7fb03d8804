import { Module } from '@nestjs/common';
import { ProjectsModule } from '@cairn/projects';
import { SecretsModule } from '@cairn/secrets';
import { ProjectCardVersionsRepository } from './project-card-versions.repository';
import { ProjectCards } from './project-cards.service';

/**
 * The project card: services only, for the api (ProjectCardHttpModule), the MCP gateway
 * (ProjectCardMcpModule), the briefing and the code index, which refreshes the derived sections
 * after each index run.
 */
@Module({
  imports: [ProjectsModule, SecretsModule],
  providers: [ProjectCardVersionsRepository, ProjectCards],
  exports: [ProjectCards],
})
export class ProjectCardModule {}
