import { Module } from '@nestjs/common';
import { CoordinationModule } from '@cairn/coordination';
import { KnowledgeModule } from '@cairn/knowledge';
import { MemoryModule } from '@cairn/memory';
import { MemoryReviewModule } from '@cairn/memory-review';
import { ProjectCardModule } from '@cairn/project-card';
import { ProjectsModule } from '@cairn/projects';
import { SecretsModule } from '@cairn/secrets';
import { AgentSessionsRepository } from './agent-sessions.repository';
import { BriefingVisits } from './briefing-visits.service';
import { BriefingService } from './briefing.service';
import { SessionEventsRepository } from './session-events.repository';
import { SessionEventsService } from './session-events.service';
import { SessionSummaryService } from './session-summary.service';
import { WorkingMemoryRepository } from './working-memory.repository';
import { WorkingMemoryService } from './working-memory.service';

/**
 * Working memory, session events, session summaries and the briefing: services only, for
 * the api (through WorkingMemoryHttpModule) and the MCP gateway. Eviction writes through
 * MemoryModule; summaries are archived through KnowledgeModule.
 */
@Module({
  imports: [
    ProjectsModule,
    MemoryModule,
    MemoryReviewModule,
    KnowledgeModule,
    SecretsModule,
    CoordinationModule,
    ProjectCardModule,
  ],
  providers: [
    AgentSessionsRepository,
    BriefingVisits,
    BriefingService,
    SessionEventsRepository,
    SessionEventsService,
    SessionSummaryService,
    WorkingMemoryRepository,
    WorkingMemoryService,
  ],
  exports: [BriefingService, SessionEventsService, SessionSummaryService, WorkingMemoryService],
})
export class WorkingMemoryModule {}
