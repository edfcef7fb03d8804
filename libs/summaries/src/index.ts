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
export { GenerationJobRunner, type GenerationWork } from './generation/generation-job';
export {
  GENERATION_KINDS,
  type GenerationJobRow,
  type GenerationKind,
  type GenerationRequestRow,
  TRANSCRIPT_MAX_CHARS,
} from './generation/generation-request.types';
export { GenerationRequestsRepository } from './generation/generation-requests.repository';
export { GenerationRequests, type SubmittedRequest } from './generation/generation-requests.service';
export { askModel, isFinalAttempt, type ModelAnswer } from './generation/model-call';
export { requesterPrincipal } from './generation/requester-principal';
export { capAtWord, clipForModel, meaningfulLines, oneLine, sha256 } from './generation/text-caps';
export {
  generationRequestSchema,
  ProjectParamDto,
  RequestAcceptedDto,
  requestAcceptedSchema,
  toRequestView,
  TranscriptDto,
  transcriptSchema,
} from './http/summaries.dto';
export { acceptedText, requestText } from './mcp/request-text';
export { SummariesMcpModule } from './mcp/summaries-mcp.module';
export { fallbackSessionSummary, SESSION_SUMMARY_MAX_CHARS } from './session/session-fallback';
export { SESSION_FALLBACK } from './session/session-summarizer';
export { SummarizeSessionJobHandler } from './session/summarize-session.job-handler';
export { SummariesHttpModule, SummariesModule, SummariesWorkerModule } from './summaries.module';
