import { CairnError } from '@cairn/common';
import { type SafeFetchReason } from './contract/safe-fetch.types';

/**
 * HTTP status per reason: refusals of the URL itself are the caller's (400/403), failures of
 * the remote side are a bad gateway (502), and running out of time is a gateway timeout (504).
 */
const STATUS: Record<SafeFetchReason, number> = {
  'invalid-url': 400,
  scheme: 400,
  credentials: 400,
  'host-not-allowed': 403,
  'blocked-address': 403,
  dns: 502,
  connection: 502,
  'too-many-redirects': 502,
  'too-large': 502,
  timeout: 504,
};

/**
 * Refusals of the URL by the safety checks alone: when one of these ends a fetch at its first
 * hop, nothing was sent to the target (at most its name was resolved to be checked).
 */
const POLICY_REFUSALS: ReadonlySet<SafeFetchReason> = new Set([
  'invalid-url',
  'scheme',
  'credentials',
  'host-not-allowed',
  'blocked-address',
]);

/**
 * A fetch refused or failed, for one {@link SafeFetchReason} (the error's `code`). Messages name
 * the reason and, for blocked addresses, the range: never the resolved address, a socket error
 * or anything else about the network the fetch ran in, so a caller cannot map internal DNS or
 * services through error bodies.
 */
export class SafeFetchError extends CairnError {
  declare readonly code: SafeFetchReason;

  constructor(
    code: SafeFetchReason,
    message: string,
    /** For `blocked-address`: the range's name (`loopback`, `private`, `cloud-metadata`…). */
    readonly range?: string,
    /**
     * The safety checks refused the URL before any connection to the target was opened (the
     * first hop; a redirect's refusal comes after the first answer). Set only by SafeFetcher,
     * which alone knows the hop; callers use it to not charge a fetch that never went out.
     */
    readonly refusedBeforeConnecting = false,
  ) {
    super(STATUS[code], code, message, range === undefined ? undefined : { range });
  }

  /** This refusal as raised at the first hop: flagged when it is one of the policy refusals. */
  atFirstHop(): SafeFetchError {
    if (!POLICY_REFUSALS.has(this.code) || this.refusedBeforeConnecting) return this;
    return new SafeFetchError(this.code, this.message, this.range, true);
  }
}
