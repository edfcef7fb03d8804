import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { type LookupFunction } from 'node:net';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { type ResolvedAddress } from './contract/safe-fetch.types';
import { SafeFetchError } from './safe-fetch.exception';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const USER_AGENT = 'Cairn-Fetch/1.0 (+https://github.com/cairn)';
const ACCEPT = 'text/html, text/markdown, text/plain, application/xhtml+xml, application/json;q=0.9, */*;q=0.5';

/** One request's answer: a redirect to follow (body discarded) or the final response. */
export type Exchange =
  | { readonly kind: 'redirect'; readonly status: number; readonly location: string }
  | { readonly kind: 'final'; readonly status: number; readonly contentType: string; readonly body: Buffer };

/**
 * A `lookup` for Node's socket that answers the address already checked, whatever name it is
 * asked for: the connection cannot trigger a second resolution, so a DNS answer that changes
 * after the check (rebinding) is never seen. Answers both the single form and the `all` form
 * Node's happy-eyeballs connect asks for, with the one address either way.
 */
function pinnedLookup(address: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: address.address, family: address.family }]);
    else callback(null, address.address, address.family);
  };
}

/**
 * One GET of `url`, connected to `address` (TLS still verifies the certificate for the URL's
 * host name: SNI and Host are the URL's), with the body streamed under `maxBytes` after
 * decompression. Aborting `signal` ends it at any point; the caller turns that into a timeout.
 */
export async function exchange(
  url: URL,
  address: ResolvedAddress,
  maxBytes: number,
  signal: AbortSignal,
): Promise<Exchange> {
  const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
    method: 'GET',
    // A fresh connection per request: a pooled socket might have been opened for another
    // address, and keep-alive would outlive the fetch's own timeout.
    agent: false,
    lookup: pinnedLookup(address),
    headers: { 'user-agent': USER_AGENT, accept: ACCEPT, 'accept-encoding': 'gzip, deflate, br' },
    signal,
  });
  // Errors surface through the promise below or the body stream; a late one (after the answer,
  // or a second one while tearing down) must not become an uncaught exception.
  request.on('error', () => undefined);
  try {
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      request.once('response', resolve);
      request.once('error', reject);
      request.end();
    });
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (REDIRECT_STATUSES.has(status) && location) return { kind: 'redirect', status, location };
    const declared = Number(response.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
    const body = await readCapped(response, maxBytes);
    return { kind: 'final', status, contentType: response.headers['content-type'] ?? '', body };
  } catch (error) {
    if (error instanceof SafeFetchError) throw error;
    // The socket's own error (ECONNREFUSED, a TLS failure…) names internals: the reason is enough.
    throw new SafeFetchError('connection', 'The server could not be reached or the connection failed');
  } finally {
    // Ends the socket whether the body was read, refused or a redirect's body is left unread.
    request.destroy();
  }
}

/**
 * The body, decompressed as its Content-Encoding says, refused as soon as the bytes received
 * (compressed or not) pass `maxBytes`: a compression bomb stops at the cap like a plain body.
 */
async function readCapped(response: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const decoder = decoderFor(response.headers['content-encoding']);
  if (decoder) {
    // pipe() reads in flowing mode, so a second 'data' listener sees every compressed chunk.
    let received = 0;
    response.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) decoder.destroy(tooLarge(maxBytes));
    });
    response.once('error', (error) => decoder.destroy(error));
    response.pipe(decoder);
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of (decoder ?? response) as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, bytes);
}

function decoderFor(encoding: string | undefined) {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return null; // identity, absent or unknown: the bytes as sent
  }
}

const tooLarge = (maxBytes: number) =>
  new SafeFetchError('too-large', `The response is larger than the ${maxBytes} bytes allowed`);
