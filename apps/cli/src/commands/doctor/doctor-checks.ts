import { connect as tlsConnect } from 'node:tls';
import { type CairnApi, errorFromResponse } from '../../api/cairn-client';
import { resolveMcpEndpoint } from '../../api/mcp-endpoint';
import { type CliContext } from '../../cli-context';
import { CliError } from '../../cli-error';
import { type Settings } from '../../settings/settings';
import { probeMcp } from './mcp-probe';

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

/** One line of `cairn doctor`: what was checked, what was found, and how to fix a problem. */
export interface Check {
  readonly name: string;
  readonly status: CheckStatus;
  readonly detail: string;
  readonly fix?: string;
}

const TIMEOUT_MS = 10_000;
const TOKEN_EXPIRY_WARNING_DAYS = 7;
const CERTIFICATE_EXPIRY_WARNING_DAYS = 14;
const SKEW_WARN_SECONDS = 60;
const SKEW_FAIL_SECONDS = 300;
const DAY_MS = 86_400_000;

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

function check(name: string, status: CheckStatus, detail: string, fix?: string): Check {
  return fix ? { name, status, detail, fix } : { name, status, detail };
}

/** The server answers /readyz (and how fast); its Date header feeds the clock check. */
export async function reachability(ctx: CliContext, url: URL): Promise<{ check: Check; date?: Date }> {
  const fetchImpl = ctx.io.fetch ?? globalThis.fetch;
  const started = performance.now();
  try {
    const response = await fetchImpl(new URL(`${url.href.replace(/\/+$/, '')}/readyz`), {
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const ms = Math.round(performance.now() - started);
    const body = (await response.json().catch(() => ({}))) as { status?: string; degraded?: string[] };
    const dateHeader = response.headers.get('date');
    const date = dateHeader ? new Date(dateHeader) : undefined;
    if (response.ok) {
      const degraded = body.degraded?.length ? `, degraded: ${body.degraded.join(', ')}` : '';
      return {
        check: check(
          'reachability',
          degraded ? 'warn' : 'ok',
          `${url.origin} ready in ${ms} ms${degraded}`,
          degraded ? 'The server runs without some dependencies; see its /readyz and logs.' : undefined,
        ),
        date,
      };
    }
    return {
      check: check(
        'reachability',
        'fail',
        `${url.origin}/readyz answered ${response.status} (${body.status ?? 'not ready'})`,
        'The server is up but not ready: check its database and Redis (its /readyz says which).',
      ),
      date,
    };
  } catch (error) {
    const cause =
      ((error as Error).cause as (Error & { code?: string }) | undefined) ?? (error as Error & { code?: string });
    const code = cause.code ?? '';
    if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/i.test(code)) {
      return {
        check: check(
          'reachability',
          'fail',
          `TLS to ${url.host} failed: ${code}`,
          'Fix the server certificate, or trust its CA with NODE_EXTRA_CA_CERTS=/path/to/ca.pem.',
        ),
      };
    }
    return {
      check: check(
        'reachability',
        'fail',
        `Cannot reach ${url.origin}: ${cause.message}`,
        'Check the URL (cairn login --url …, CAIRN_URL), that the server runs, and your network or proxy.',
      ),
    };
  }
}

/** https with a certificate Node trusts (and not about to expire), or a warning for plain http beyond loopback. */
export async function transportSecurity(url: URL): Promise<Check> {
  if (url.protocol === 'http:') {
    return LOOPBACK.test(url.hostname)
      ? check('tls', 'ok', 'plain http to this machine (loopback)')
      : check(
          'tls',
          'warn',
          `plain http to ${url.hostname}: the token crosses the network unencrypted`,
          "Serve Cairn behind TLS (the Helm chart's ingress with tls.enabled) and use its https:// URL.",
        );
  }
  return new Promise<Check>((resolve) => {
    const socket = tlsConnect(
      { host: url.hostname, port: Number(url.port || 443), servername: url.hostname, timeout: TIMEOUT_MS },
      () => {
        const certificate = socket.getPeerCertificate();
        socket.end();
        const validTo = new Date(certificate.valid_to);
        const days = Math.floor((validTo.getTime() - Date.now()) / DAY_MS);
        resolve(
          days < CERTIFICATE_EXPIRY_WARNING_DAYS
            ? check(
                'tls',
                'warn',
                `certificate for ${url.hostname} expires in ${days} days (${validTo.toISOString().slice(0, 10)})`,
                'Renew the server certificate.',
              )
            : check('tls', 'ok', `https, certificate valid until ${validTo.toISOString().slice(0, 10)}`),
        );
      },
    );
    socket.on('error', (error: Error & { code?: string }) =>
      resolve(
        check(
          'tls',
          'fail',
          `TLS handshake with ${url.host} failed: ${error.code ?? error.message}`,
          'Fix the server certificate, or trust its CA with NODE_EXTRA_CA_CERTS=/path/to/ca.pem.',
        ),
      ),
    );
    socket.on('timeout', () => {
      socket.destroy();
      resolve(
        check('tls', 'fail', `no TLS handshake with ${url.host} within ${TIMEOUT_MS} ms`, 'Check the URL and port.'),
      );
    });
  });
}

export interface Identity {
  readonly checks: Check[];
  readonly valid: boolean;
  readonly date?: Date;
}

/** Token validity and expiry, role, projects (and that the configured project is one of them). */
export async function identity(api: CairnApi, settings: Settings): Promise<Identity> {
  const { data, error, response } = await api.GET('/v1/whoami');
  const dateHeader = response.headers.get('date');
  const date = dateHeader ? new Date(dateHeader) : undefined;
  if (!response.ok || !data) {
    const failure = errorFromResponse(response, error);
    return {
      valid: false,
      date,
      checks: [
        check(
          'token',
          'fail',
          `${settings.token?.source ?? 'no'} token refused: ${failure.message}`,
          failure.hint ?? 'Run `cairn login` with a valid token.',
        ),
      ],
    };
  }
  if (data.kind === 'platform') {
    return {
      valid: true,
      date,
      checks: [check('token', 'ok', 'platform admin token (no tenant: agent commands need a session token)')],
    };
  }
  const checks: Check[] = [];
  const expiresAt = data.expiresAt ? new Date(data.expiresAt) : undefined;
  const days = expiresAt ? (expiresAt.getTime() - Date.now()) / DAY_MS : Infinity;
  checks.push(
    days < TOKEN_EXPIRY_WARNING_DAYS
      ? check(
          'token',
          'warn',
          `valid (from ${settings.token?.source}), expires in ${Math.max(0, Math.floor(days * 24))} hours (${data.expiresAt})`,
          'Ask an admin for a new token soon (cairn admin tokens create), then cairn login.',
        )
      : check('token', 'ok', `valid (from ${settings.token?.source}), expires ${data.expiresAt?.slice(0, 10)}`),
  );
  const projects = data.projects === '*' ? 'every project' : (data.projects ?? []).join(', ') || 'none';
  checks.push(
    check('role', 'ok', `${data.role} of ${data.tenant?.slug}${data.agentId ? `, agent ${data.agentId}` : ''}`),
  );
  const project = settings.project?.value ?? data.defaultProject ?? undefined;
  const inScope = !project || data.projects === '*' || (data.projects ?? []).includes(project);
  checks.push(
    inScope
      ? check(
          'projects',
          project ? 'ok' : 'warn',
          `may use ${projects}; working project ${project ?? 'none'}${settings.project ? ` (from ${settings.project.source})` : ' (token default)'}`,
          project ? undefined : 'Set one: cairn login --project <slug>, or CAIRN_PROJECT.',
        )
      : check(
          'projects',
          'fail',
          `project ${project} is not in the token's scope (${projects})`,
          'Use one of its projects (--project, CAIRN_PROJECT), or ask for a token that includes it.',
        ),
  );
  return { valid: true, date, checks };
}

/** Search mode and embedding model from GET /v1/status. */
export async function search(api: CairnApi): Promise<Check> {
  const { data, error, response } = await api.GET('/v1/status');
  if (!response.ok || !data) {
    const failure = errorFromResponse(response, error);
    return check(
      'search',
      response.status === 404 ? 'warn' : 'fail',
      `GET /v1/status: ${failure.message}`,
      response.status === 404 ? 'The server predates /v1/status; upgrade it.' : failure.hint,
    );
  }
  if (!data.search) return check('search', 'skip', 'no tenant (platform admin token)');
  const { mode, reason, embedding } = data.search;
  const model = `${embedding.provider}/${embedding.model} (${embedding.dimensions} dimensions)`;
  if (mode === 'keyword')
    return check(
      'search',
      'warn',
      `keyword only, ${model}: ${reason}`,
      'Start the embedding provider or fix EMBEDDING_* on the server; search is keyword-only until then.',
    );
  if (embedding.builtIn)
    return check(
      'search',
      'warn',
      `hybrid with the built-in hash embedder ${model}: word overlap, not meaning`,
      'For semantic recall set EMBEDDING_PROVIDER=local (or ollama/openai) on the server.',
    );
  return check('search', 'ok', `hybrid, ${model}`);
}

/** Local clock against the server's Date header: expiry and "since" times are the server's. */
export function clockSkew(serverDate: Date | undefined, localAtResponse: number): Check {
  if (!serverDate || Number.isNaN(serverDate.getTime()))
    return check('clock', 'skip', 'the server sent no Date header');
  const skew = Math.round((localAtResponse - serverDate.getTime()) / 1000);
  const text = `local clock ${Math.abs(skew)} s ${skew >= 0 ? 'ahead of' : 'behind'} the server`;
  if (Math.abs(skew) > SKEW_FAIL_SECONDS)
    return check('clock', 'fail', text, "Synchronise this machine's clock (NTP: timedatectl set-ntp true).");
  if (Math.abs(skew) > SKEW_WARN_SECONDS)
    return check('clock', 'warn', text, "Synchronise this machine's clock (NTP).");
  return check('clock', 'ok', Math.abs(skew) <= 1 ? 'in step with the server' : text);
}

/** The MCP endpoint: where it is, and an `initialize` through the SDK's client with the token. */
export async function mcp(ctx: CliContext, token: string | undefined): Promise<Check[]> {
  const endpoint = await resolveMcpEndpoint(ctx);
  const where = `${endpoint.url.href} (${endpoint.source === 'server' ? 'from the server' : endpoint.source === 'probe' ? 'found by probing' : endpoint.source === 'guess' ? 'a guess' : `from ${endpoint.source}`})`;
  if (!token) return [check('mcp', 'skip', `${where}; no token to initialize with`)];
  try {
    const probe = await probeMcp(endpoint.url, token, TIMEOUT_MS, `cairn-cli/${ctx.version}`);
    const version = probe.protocolVersion ?? 'unknown';
    const server = probe.server ? `${probe.server.name} ${probe.server.version}` : 'unknown server';
    const detail = `${where}: ${server}, protocol ${version}, ${probe.tools} tools for this token`;
    if (probe.protocolVersion !== probe.latestProtocolVersion) {
      return [
        check(
          'mcp',
          'warn',
          detail,
          `The gateway negotiated ${version}, not the latest ${probe.latestProtocolVersion}: upgrade the server.`,
        ),
      ];
    }
    return [check('mcp', 'ok', detail)];
  } catch (error) {
    const message = error instanceof CliError ? error.message : (error as Error).message;
    const fix =
      endpoint.source === 'server'
        ? "The server's MCP_PUBLIC_URL names this endpoint: check that the gateway runs and is routed there."
        : "Pass --mcp-url / set CAIRN_MCP_URL to the gateway's /mcp, or ask the operator to set MCP_PUBLIC_URL.";
    return [check('mcp', 'fail', `${where}: ${message.slice(0, 300)}`, fix)];
  }
}
