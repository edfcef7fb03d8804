import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { type SessionPrincipal } from '@cairn/access';
import { CairnError } from '@cairn/common';
import { TenantSettingsService } from '@cairn/extraction';
import { type JobPayload, type JobResult } from '@cairn/jobs';
import {
  bodyText,
  type FetchResult,
  flagPromptInjection,
  htmlToMarkdown,
  isHtml,
  SafeFetcher,
  SafeFetchError,
} from '@cairn/safe-fetch';
import { type LiveTenant } from '@cairn/tenancy';
import { type FetchJobOutput } from './contract/kb.types';
import { KbFetchService } from './kb-fetch.service';
import { KnowledgeService } from './knowledge.service';

/**
 * TEST ONLY: CIDRs the fetch may reach although they are internal (a server a test runs on
 * loopback). No app module provides it, so in production it is absent; it is never built from
 * a request, a setting or the environment. Cloud metadata addresses stay blocked regardless.
 */
export const KB_FETCH_TRUSTED_ADDRESSES = Symbol('KB_FETCH_TRUSTED_ADDRESSES');

/** Bodies kept as they are (anything else but HTML is refused rather than indexed as noise). */
const TEXT_TYPES = /^(text\/|application\/(json|xml|[\w.+-]+\+(json|xml))\b)/i;

type FetchPayload = JobPayload<'knowledge', 'fetch'>;

/**
 * The worker's half of `kb_fetch`: fetches the URL with the tenant's host lists, turns HTML
 * into Markdown, flags prompt-injection phrasing and indexes the text as an `external`
 * document through KnowledgeService (chunks, embedding jobs). Refusals (the fetch engine's,
 * the indexer's) are the job's result, not its failure: retrying cannot change them, and the
 * caller waiting on the job gets them as its error.
 */
@Injectable()
export class KbFetchRunner {
  private readonly logger = new Logger('KbFetch');

  constructor(
    private readonly fetcher: SafeFetcher,
    private readonly settings: TenantSettingsService,
    private readonly knowledge: KnowledgeService,
    private readonly fetches: KbFetchService,
    @Optional() @Inject(KB_FETCH_TRUSTED_ADDRESSES) private readonly trusted?: readonly string[],
  ) {}

  /** In the job's tenant (the job registry entered it). */
  async run(payload: FetchPayload, tenant: LiveTenant): Promise<JobResult> {
    try {
      return await this.fetchAndIndex(payload, requester(tenant, payload));
    } catch (error) {
      // A refusal (4xx, or the fetch engine's 502/504) is the answer; anything else is retried.
      if (error instanceof CairnError && (error.status < 500 || isFetchError(error))) {
        if (error instanceof SafeFetchError && error.refusedBeforeConnecting) await this.giveBack(payload);
        const output: FetchJobOutput = {
          error: { status: error.status, code: error.code, message: error.message, details: error.details },
        };
        return { status: 'skipped', detail: error.code, output };
      }
      throw error;
    }
  }

  /** The budget counts fetches that reached the network; this one was refused before it went out. */
  private async giveBack(payload: FetchPayload): Promise<void> {
    if (!payload.budgetDay) return;
    try {
      await this.fetches.giveBack(payload.project, payload.budgetDay);
    } catch (error) {
      // The refusal is still the answer; the unit stays spent, as it would have before.
      this.logger.warn({ msg: 'could not give back a refused fetch to the budget', err: error });
    }
  }

  private async fetchAndIndex(payload: FetchPayload, principal: SessionPrincipal): Promise<JobResult> {
    const { fetchAllowHosts, fetchDenyHosts } = await this.settings.get();
    const fetched = await this.fetcher.fetch(payload.url, {
      allowHosts: fetchAllowHosts,
      denyHosts: fetchDenyHosts,
      ...(this.trusted ? { trustedAddresses: this.trusted } : {}),
    });
    if (fetched.status >= 400) {
      throw new CairnError(502, 'fetch_upstream_status', `The page answered HTTP ${fetched.status}`, {
        status: fetched.status,
      });
    }
    const text = pageText(fetched);
    const flags = flagPromptInjection(text);
    const result = await this.knowledge.index(payload.project, principal, {
      source: payload.url,
      title: payload.title ?? firstHeading(text),
      text,
      sourceType: 'external',
      retentionTier: payload.retentionTier,
      metadata: {
        fetch: { finalUrl: fetched.finalUrl, contentType: fetched.contentType, bytes: fetched.bytes, flags },
      },
    });
    const output: FetchJobOutput = {
      documentId: result.document.id,
      duplicate: result.duplicate,
      finalUrl: fetched.finalUrl,
      flags,
    };
    return { status: 'done', detail: result.document.id, counts: { chunks: result.chunks }, output };
  }
}

/** The fetch engine's own failures (dns, connection, too-large, timeout…) are final for this call too. */
function isFetchError(error: CairnError): boolean {
  return error.name === 'SafeFetchError' || error.code === 'fetch_upstream_status';
}

function pageText(fetched: FetchResult): string {
  if (isHtml(fetched)) return htmlToMarkdown(bodyText(fetched));
  if (fetched.contentType === '' || TEXT_TYPES.test(fetched.contentType)) return bodyText(fetched);
  throw new CairnError(415, 'unsupported_content_type', 'Only HTML and text pages can be fetched', {
    contentType: fetched.contentType.slice(0, 100),
  });
}

/** The page's first Markdown heading, as its title. */
function firstHeading(markdown: string): string | undefined {
  return /^#{1,6}\s+(.+)$/m.exec(markdown)?.[1]?.trim().slice(0, 500) || undefined;
}

/** The requester as the indexer sees them: an agent of the tenant on the one project it named. */
function requester(tenant: LiveTenant, payload: FetchPayload): SessionPrincipal {
  const { userId, agentId, tokenId } = payload.requestedBy;
  return {
    kind: 'session',
    tokenId,
    tenant,
    role: 'agent',
    userId,
    agentId,
    projects: [payload.project],
    defaultProject: payload.project,
    toolsets: [],
    expiresAt: new Date(Date.now() + 60 * 60 * 1000),
  };
}
