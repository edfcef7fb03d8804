export { GenerationModule } from './generation.module';
export { GenerationHttpModule } from './http/generation-http.module';
export { GenerationJobRunner, type GenerationWork } from './generation-job-runner.service';
export { GenerationRequests, type SubmittedRequest } from './generation-requests.service';
export {
  GENERATION_KINDS,
  GENERATION_STATUSES,
  type GenerationJobRow,
  type GenerationKind,
  type GenerationRequestRow,
  type GenerationStatus,
  TRANSCRIPT_MAX_CHARS,
} from './contract/generation-request.types';
export {
  ExtractionInputDto,
  extractionInputSchema,
  GenerationRequestDto,
  generationRequestSchema,
  RequestAcceptedDto,
  requestAcceptedSchema,
  toRequestView,
  TranscriptDto,
  transcriptSchema,
} from './contract/generation-requests.dto';
export { askModel, failRowOnFinalAttempt, isFinalAttempt, type ModelAnswer } from './model-call';
export {
  fenceUserContent,
  INJECTION_PATTERNS,
  injectionSignals,
  looksLikePromptInjection,
  parseJsonAnswer,
} from './prompting';
export { requesterPrincipal } from './requester-principal';
export { capAtWord, clipForModel, meaningfulLines, oneLine, sha256 } from './text-caps';
export { acceptedText, requestText } from './mcp/request-text';
