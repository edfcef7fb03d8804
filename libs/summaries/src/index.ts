export { SummariesModule } from './summaries.module';
export { SummariesHttpModule } from './http/summaries-http.module';
export { SummariesMcpModule } from './mcp/summaries-mcp.module';
export { SummariesWorkerModule } from './jobs/summaries-worker.module';
export { FileSummaries } from './file-summaries.service';
export {
  type CurrentFileSummary,
  FILE_CONTENT_MAX_CHARS,
  FILE_PATH_MAX_CHARS,
  FILE_SUMMARY_STATUSES,
  type FileSummary,
  type FileSummaryStatus,
  L0_MAX_CHARS,
  L1_MAX_CHARS,
  OUTLINE_FALLBACK,
} from './contract/file-summary.types';
export {
  FileSummaryAcceptedDto,
  fileSummaryAcceptedSchema,
  FileSummaryDto,
  FileSummaryQueryDto,
  FileSummaryRequestDto,
  fileSummaryRequestSchema,
  fileSummarySchema,
} from './contract/file-summaries.dto';
