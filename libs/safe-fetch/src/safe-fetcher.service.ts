import { Inject, Injectable } from '@nestjs/common';
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_REDIRECTS,
  DEFAULT_TIMEOUT_MS,
  type FetchPolicy,
  type FetchResult,
  HOST_RESOLVER,
  type HostResolver,
  type ResolvedAddress,
} from './contract/safe-fetch.types';
import { blockedRange, parseAddress, parseTrusted } from './address-ranges';
import { exchange } from './http-exchange';
import { SafeFetchError } from './safe-fetch.exception';
import { checkUrl, parseUrl, type UrlHost } from './url-target';

/**
 * Fetches a URL on behalf of a tenant without letting it reach anything internal (DESIGN §8).
 * Every hop, the first and each redirect (followed here, never by the HTTP client), passes the
 * same checks: http(s) only, no credentials, the caller's host lists, and every address the host
 * is or resolves to outside the blocked ranges. The connection then goes to the checked address
 * itself, so the name is never resolved a second time. The whole fetch, redirects included, is
 * bounded in time and the body in size.
 */
@Injectable()
export class SafeFetcher {
  constructor(@Inject(HOST_RESOLVER) private readonly resolve: HostResolver) {}

  async fetch(rawUrl: string, policy: FetchPolicy = {}): Promise<FetchResult> {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), policy.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    try {
      return await this.follow(await firstHop(() => parseUrl(rawUrl)), policy, timeout.signal);
    } catch (error) {
      // Whatever broke once time ran out (an aborted socket, a resolver left waiting), the reason is the time.
      if (timeout.signal.aborted) throw new SafeFetchError('timeout', 'The fetch took longer than allowed');
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  private async follow(first: URL, policy: FetchPolicy, signal: AbortSignal): Promise<FetchResult> {
    const maxRedirects = policy.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    const redirects: string[] = [];
    let url = first;
    for (;;) {
      const target = url;
      const check = () => this.checkedAddress(checkUrl(target, policy), policy, signal);
      const address = await (redirects.length === 0 ? firstHop(check) : check());
      const answer = await exchange(url, address, policy.maxBytes ?? DEFAULT_MAX_BYTES, signal);
      if (answer.kind === 'final') {
        const { status, contentType, body } = answer;
        return { finalUrl: url.href, status, contentType, body, bytes: body.length, redirects };
      }
      if (redirects.length >= maxRedirects) {
        throw new SafeFetchError('too-many-redirects', `More than ${maxRedirects} redirects`);
      }
      url = parseUrl(answer.location, url);
      redirects.push(url.href);
    }
  }

  /**
   * The address to connect to: the literal itself, or every address the name resolves to
   * checked and the first one used. One blocked answer refuses the host, so a name that mixes
   * a public address with an internal one cannot be steered to the internal one.
   */
  private async checkedAddress(target: UrlHost, policy: FetchPolicy, signal: AbortSignal): Promise<ResolvedAddress> {
    const answers = target.literal
      ? [{ address: target.literal, family: target.literal.includes(':') ? 6 : 4 } as const]
      : await this.resolveName(target.host, signal);
    const trusted = parseTrusted(policy.trustedAddresses);
    const checked: ResolvedAddress[] = [];
    for (const answer of answers) {
      const address = parseAddress(answer.address);
      if (!address) throw new SafeFetchError('dns', 'The host resolved to something that is not an address');
      const range = blockedRange(address, trusted);
      if (range !== null) {
        throw new SafeFetchError('blocked-address', `The host is or resolves to a blocked address (${range})`, range);
      }
      // Connect to the address as checked (canonical text), not as the resolver spelled it.
      checked.push({ address: address.toString(), family: address.kind() === 'ipv6' ? 6 : 4 });
    }
    return checked[0];
  }

  private async resolveName(hostname: string, signal: AbortSignal): Promise<readonly ResolvedAddress[]> {
    let answers: readonly ResolvedAddress[];
    try {
      answers = await abortable(this.resolve(hostname), signal);
    } catch {
      throw new SafeFetchError('dns', 'The host could not be resolved');
    }
    if (answers.length === 0) throw new SafeFetchError('dns', 'The host could not be resolved');
    return answers;
  }
}

/**
 * `check` run for the first hop: a refusal of it is flagged as made before anything went to the
 * target, so a caller can tell it from a fetch that reached the network (SafeFetchError.atFirstHop).
 */
async function firstHop<T>(check: () => T | Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    throw error instanceof SafeFetchError ? error.atFirstHop() : error;
  }
}

/** `promise`, or a rejection as soon as `signal` aborts (a resolver has no signal of its own). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    void promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
