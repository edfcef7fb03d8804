export { estimateTokens, fitBriefing } from './briefing-budget';
export { renderBriefingText } from './briefing-text';
export { type Briefing, BRIEFING_SECTIONS, type BriefingSection } from './contract/briefing.types';
export { BriefingService } from './briefing.service';
export { WorkingMemoryHttpModule } from './http/working-memory-http.module';
export { WorkingMemoryMcpModule } from './mcp/working-memory-mcp.module';
export { SessionEventsService } from './session-events.service';
export { SessionSummaryService } from './session-summary.service';
export {
  contextOptionsSchema,
  type ContextOptions,
  recordEventSchema,
  type RecordEventInput,
  rememberSchema,
  type RememberInput,
  summarizeSchema,
  type SummarizeInput,
  wmKeySchema,
} from './contract/working-memory.fields';
export { WorkingMemoryModule } from './working-memory.module';
export { WorkingMemoryService } from './working-memory.service';
export {
  EVENT_KINDS,
  type EventKind,
  EVENTS_MAX_LIMIT,
  type EvictedEntry,
  LAST_SESSION_SUMMARY_KEY,
  type RememberResult,
  type SessionEvent,
  type SummaryResult,
  type WorkingMemoryEntry,
} from './contract/working-memory.types';
