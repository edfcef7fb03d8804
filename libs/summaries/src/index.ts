export { FileSummaries } from './files/file-summaries.service';
export {
  FILE_CONTENT_MAX_CHARS,
  FILE_PATH_MAX_CHARS,
  type FileSummary,
  L0_MAX_CHARS,
  L1_MAX_CHARS,
  OUTLINE_FALLBACK,
} from './files/file-summary.types';
export { outlineL0, outlineL1 } from './files/file-outline';
export { SummarizeFileJobHandler } from './files/summarize-file.job-handler';
export { SummariesMcpModule } from './mcp/summaries-mcp.module';
export { fallbackSessionSummary, SESSION_SUMMARY_MAX_CHARS } from './session/session-fallback';
export { SESSION_FALLBACK } from './session/session-summarizer';
export { SummarizeSessionJobHandler } from './session/summarize-session.job-handler';
export { SummariesHttpModule, SummariesModule, SummariesWorkerModule } from './summaries.module';
