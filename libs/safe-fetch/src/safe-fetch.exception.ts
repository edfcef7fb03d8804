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
  ) {
    super(STATUS[code], code, message, range === undefined ? undefined : { range });
  }
}
