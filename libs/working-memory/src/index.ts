export { estimateTokens, fitBriefing } from './briefing-budget';
export { renderBriefingText } from './briefing-text';
export { type Briefing, BRIEFING_SECTIONS, type BriefingSection } from './briefing.types';
export { BriefingService } from './briefing.service';
export { WorkingMemoryHttpModule } from './http/working-memory-http.module';
export { WorkingMemoryMcpModule } from './mcp/working-memory-mcp.module';
export { EVENTS_MAX_LIMIT, SessionEventsService } from './session-events.service';
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
} from './working-memory.fields';
export { WorkingMemoryModule } from './working-memory.module';
export { WorkingMemoryService } from './working-memory.service';
export {
  EVENT_KINDS,
  type EventKind,
  type EvictedEntry,
  LAST_SESSION_SUMMARY_KEY,
  type RememberResult,
  type SessionEvent,
  type SummaryResult,
  type WorkingMemoryEntry,
} from './working-memory.types';
