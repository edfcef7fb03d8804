export { CANDIDATES_MAX, candidateSchema, dedupeCandidates, type FactCandidate } from './fact-candidate';
export { ExtractFactsJobHandler } from './extract-facts.job-handler';
export { type Extraction, FactExtractor, RULES_FALLBACK } from './fact-extractor';
export { ExtractionHttpModule, ExtractionModule, ExtractionWorkerModule } from './extraction.module';
export { ExtractionMcpModule } from './mcp/extraction-mcp.module';
export { type Proposal, PROPOSAL_STATUSES, ProposalsRepository, type ProposalStatus } from './proposals.repository';
export { EXTRACTED_TAG, ProposalsService } from './proposals.service';
export { extractByRules } from './rule-extractor';
export { EXTRACTION_MODES, type ExtractionMode, type TenantSettings, TenantSettingsService } from './tenant-settings';
