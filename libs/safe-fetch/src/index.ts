// Fetching URLs from outside without reaching inside (SSRF), and handling what comes back as untrusted.
export {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_REDIRECTS,
  DEFAULT_TIMEOUT_MS,
  type FetchPolicy,
  type FetchResult,
  HOST_RESOLVER,
  type HostResolver,
  type ResolvedAddress,
  SAFE_FETCH_REASONS,
  type SafeFetchReason,
} from './contract/safe-fetch.types';
export { blockedRange, parseAddress } from './address-ranges';
export { bodyText, isHtml } from './fetched-body';
export { systemResolver } from './host-resolver';
export { htmlToMarkdown } from './html-to-markdown';
export { SafeFetchError } from './safe-fetch.exception';
export { SafeFetchModule } from './safe-fetch.module';
export { SafeFetcher } from './safe-fetcher.service';
export {
  flagPromptInjection,
  PROMPT_INJECTION_PATTERNS,
  unverifiedAgentLabel,
  untrustedLabel,
} from './untrusted-content';
