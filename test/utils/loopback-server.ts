import { AsyncLocalStorage } from 'node:async_hooks';
import { lookup as dnsLookup } from 'node:dns';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type AddressInfo, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export type LoopbackHandler = (request: IncomingMessage, response: ServerResponse, url: URL) => void;

export interface LoopbackServer {
  /** The address it listens on (`127.0.0.1`, `127.0.0.2`, `::1`…). */
  readonly host: string;
  readonly port: number;
  /** Every request received: path and query, and the Host header sent. */
  readonly requests: { readonly path: string; readonly host: string | undefined }[];
  /** Answers `path` (without query) with `handler` from now on; other paths get 404. */
  route(path: string, handler: LoopbackHandler): void;
  close(): Promise<void>;
}

/**
 * A plain HTTP server on a loopback address, for tests of outbound fetching: it records what
 * reached it, so a test can prove that a request did not. On Linux every 127.0.0.0/8 address is
 * the loopback interface, so two servers on 127.0.0.1 and 127.0.0.2 with one port stand for "the
 * public host" and "the internal service" of the same URL.
 */
export async function startLoopbackServer(host = '127.0.0.1', port = 0): Promise<LoopbackServer> {
  const requests: { path: string; host: string | undefined }[] = [];
  const routes = new Map<string, LoopbackHandler>();
  const server = createServer((request, response) => {
    requests.push({ path: request.url ?? '', host: request.headers.host });
    const url = new URL(request.url ?? '/', 'http://loopback');
    const handler = routes.get(url.pathname);
    if (handler) handler(request, response, url);
    else response.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return {
    host,
    port: (server.address() as AddressInfo).port,
    requests,
    route: (path, handler) => void routes.set(path, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What {@link guardConnections} saw: every address a socket was about to connect to. */
export interface ConnectionGuard {
  /** In order; `tag` is the {@link ConnectionGuard.tagged} run that opened the socket (none outside one). */
  readonly attempts: { readonly address: string; readonly tag: string | undefined }[];
  /**
   * Runs `work` with every connection it opens tagged `tag`. Why: the guard patches the process's
   * `net`, which a jest worker shares between test files, so a client another file left open
   * (a pool reconnecting to 127.0.0.1) shows up too; a test counts its own connections by tag.
   */
  tagged<T>(tag: string, work: () => Promise<T>): Promise<T>;
  restore(): void;
}

const isLoopback = (address: string) => ipaddr.isValid(address) && ipaddr.process(address).range() === 'loopback';

/**
 * Records every outgoing TCP connection of this process and refuses (with a socket error) any
 * to a non-loopback address. A test of SSRF defences points at private and cloud addresses on
 * purpose; if a defence ever failed, the guard keeps the test from sending a packet off the
 * machine and the recorded attempt makes the failure plain.
 */
export function guardConnections(): ConnectionGuard {
  const attempts: { address: string; tag: string | undefined }[] = [];
  const tags = new AsyncLocalStorage<string>();
  const original = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
    // http's agent calls connect with the normalised [options, callback] array.
    const options = (Array.isArray(args[0]) ? args[0][0] : args[0]) as net.TcpNetConnectOpts | undefined;
    // Taken now, in the context of whoever connects: the lookup below answers later.
    const tag = tags.getStore();
    if (options && typeof options === 'object' && options.port !== undefined) {
      const host = options.host ?? 'localhost';
      if (net.isIP(host)) {
        attempts.push({ address: host, tag });
        if (!isLoopback(host)) {
          process.nextTick(() => this.destroy(new Error(`test guard: connection to ${host} refused`)));
          return this;
        }
      } else {
        const lookup: LookupFunction = options.lookup ?? dnsLookup;
        options.lookup = (hostname, lookupOptions, callback) =>
          lookup(hostname, lookupOptions, (error, address, family) => {
            const addresses = Array.isArray(address) ? address.map((entry) => entry.address) : [address];
            if (!error) attempts.push(...addresses.map((entry) => ({ address: entry, tag })));
            const outside = addresses.find((entry) => !isLoopback(entry));
            if (!error && outside) callback(new Error(`test guard: connection to ${outside} refused`), address, family);
            else callback(error, address, family);
          });
      }
    }
    return (original as (...all: unknown[]) => net.Socket).apply(this, args);
  };
  return {
    attempts,
    tagged: (tag, work) => tags.run(tag, work),
    restore: () => void (net.Socket.prototype.connect = original),
  };
}
