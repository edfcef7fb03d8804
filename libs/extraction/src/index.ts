export { ExtractionModule } from './extraction.module';
export { ExtractionHttpModule } from './http/extraction-http.module';
export { ExtractionMcpModule } from './mcp/extraction-mcp.module';
export { ExtractionWorkerModule } from './jobs/extraction-worker.module';
export { type Extraction, FactExtractor, RULES_FALLBACK } from './fact-extractor.service';
export { EXTRACTED_TAG, ProposalsService } from './proposals.service';
export { TenantSettingsService } from './tenant-settings.service';
export { type Proposal, PROPOSAL_STATUSES, type ProposalStatus } from './contract/proposal.types';
export {
  EXTRACTION_MODES,
  type ExtractionMode,
  type TenantSettings,
  type TenantSettingsChanges,
} from './contract/tenant-settings.types';
