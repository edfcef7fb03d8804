import { type SessionPrincipal } from '@cairn/access';
import { GenerationJobRunner, type GenerationJobRow, requesterPrincipal } from '@cairn/generation';
import { type HandlesJob, JobHandler, type JobPayload, type JobResult, type TenantJobInfo } from '@cairn/jobs';
import { MemoryWriter } from '@cairn/memory';
import { type Extraction, FactExtractor, RULES_FALLBACK } from '../fact-extractor.service';
import { ProposalsService, withExtractedTag } from '../proposals.service';
import { TenantSettingsService } from '../tenant-settings.service';

/** Model-extracted facts are more often right than rule matches, and neither is vetted yet. */
const MODEL_CONFIDENCE = 0.7;
const RULES_CONFIDENCE = 0.6;

/**
 * `extraction/extract-facts`: extracts candidate memories, then, per the tenant's
 * `extraction.mode`, stores them as pending proposals (the default) or directly as memories
 * authored by the requester. Both happen in the runner's transaction with the request's
 * completion, so a rerun never stores them twice.
 */
@JobHandler('extraction', 'extract-facts')
export class ExtractFactsJobHandler implements HandlesJob<'extraction', 'extract-facts'> {
  constructor(
    private readonly runner: GenerationJobRunner,
    private readonly extractor: FactExtractor,
    private readonly settings: TenantSettingsService,
    private readonly proposals: ProposalsService,
    private readonly writer: MemoryWriter,
  ) {}

  handle(payload: JobPayload<'extraction', 'extract-facts'>, job: TenantJobInfo): Promise<JobResult> {
    return this.runner.run<Extraction>(payload, job, 'fact_extraction', {
      produce: (input, finalAttempt) => this.extractor.extract(input, finalAttempt),
      store: async (extraction, request, tenant) => {
        const { extractionMode: mode } = await this.settings.get();
        const confidence = extraction.generatedBy === RULES_FALLBACK ? RULES_CONFIDENCE : MODEL_CONFIDENCE;
        // The facts occurred when the conversation did: as the requester said, else when it was sent.
        const occurredAt = request.occurredAt ?? request.createdAt;
        const ids =
          mode === 'memories'
            ? await this.storeMemories(extraction, request, requesterPrincipal(tenant, request), confidence, occurredAt)
            : await this.proposals.proposeExtracted(request.projectId, request.id, extraction.candidates, {
                confidence,
                occurredAt,
                author: requesterPrincipal(tenant, request),
              });
        return {
          result: {
            mode,
            source: extraction.generatedBy === RULES_FALLBACK ? 'rules' : 'model',
            candidates: extraction.candidates.length,
            dropped: extraction.dropped,
            proposalIds: mode === 'proposals' ? ids : [],
            memoryIds: mode === 'memories' ? ids : [],
          },
          generatedBy: extraction.generatedBy,
          flaggedInjection: extraction.flaggedInjection,
          detail: `${ids.length} ${mode}`,
        };
      },
    });
  }

  /** Each through MemoryWriter, so contradiction checks and embedding apply as to any write. */
  private async storeMemories(
    extraction: Extraction,
    request: GenerationJobRow,
    author: SessionPrincipal,
    confidence: number,
    occurredAt: Date,
  ): Promise<string[]> {
    const ids: string[] = [];
    for (const candidate of extraction.candidates) {
      const { memory } = await this.writer.store(request.projectSlug, author, {
        content: candidate.content,
        category: candidate.category,
        importance: candidate.importance,
        keywords: candidate.keywords,
        tags: withExtractedTag(candidate.tags),
        confidence,
        source: null,
        pinned: false,
        scope: 'project',
        supersedes: [],
        occurredAt,
      });
      ids.push(memory.id);
    }
    return ids;
  }
}
