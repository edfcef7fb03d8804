import { type SessionPrincipal } from '@cairn/access';
import { type TokenIds, type TokenVerifier } from '@cairn/auth';
import { UnauthenticatedError } from '@cairn/common';
import { type CairnConfig } from '@cairn/config';
import { type FastifyRequest } from 'fastify';
import { type ToolRegistry } from '../tool.registry';
import { type McpRateLimits, type RateLimitRefusal } from './mcp-rate-limits.service';
import { McpRequestGate } from './mcp-request-gate.service';

const ids: TokenIds = { tokenId: 'token-1', tenantId: 'tenant-1' };
const principal = { kind: 'session', tokenId: 'token-1', tenant: { id: 'tenant-1' } } as SessionPrincipal;
const request = { headers: { authorization: 'Bearer x' }, query: {} } as unknown as FastifyRequest;

/** A gate over fakes: the verifier knows (or not) the token's ids, then accepts or refuses it. */
function gate(options: { known: boolean; valid: boolean; limited?: RateLimitRefusal }) {
  const calls: string[] = [];
  const verifier = {
    knownIds: () => (options.known ? ids : undefined),
    authenticate: () => {
      calls.push('lookup');
      if (!options.valid) return Promise.reject(new UnauthenticatedError('token_revoked', 'Token has been revoked'));
      return Promise.resolve(principal);
    },
  } as unknown as TokenVerifier;
  const limits = {
    consume: (spent: TokenIds) => {
      calls.push(`consume ${spent.tokenId}`);
      return Promise.resolve(options.limited);
    },
    refund: (given: TokenIds) => {
      calls.push(`refund ${given.tokenId}`);
      return Promise.resolve();
    },
  } as unknown as McpRateLimits;
  const config = { mcp: { allowedOrigins: '*' }, http: { host: '0.0.0.0' } } as unknown as CairnConfig;
  return { gate: new McpRequestGate(config, verifier, limits, {} as ToolRegistry), calls };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('McpRequestGate.admit', () => {
  it('spends the budgets after the lookup for a token it has not seen', async () => {
    const { gate: subject, calls } = gate({ known: false, valid: true });
    expect(await subject.admit(request, 'https://x')).toEqual({ principal, limited: undefined });
    expect(calls).toEqual(['lookup', 'consume token-1']);
  });

  it('spends them while the lookup runs for a token it has seen, once', async () => {
    const limited: RateLimitRefusal = { scope: 'tenant', limit: 5, retryAfterSeconds: 30 };
    const { gate: subject, calls } = gate({ known: true, valid: true, limited });
    expect(await subject.admit(request, 'https://x')).toEqual({ principal, limited });
    await settled();
    expect(calls).toEqual(['consume token-1', 'lookup']);
  });

  it('gives the early spend back when the token turns out invalid', async () => {
    const { gate: subject, calls } = gate({ known: true, valid: false });
    const answer = await subject.admit(request, 'https://x');
    expect(answer).toMatchObject({ refusal: { status: 401 } });
    await settled();
    expect(calls).toEqual(['consume token-1', 'lookup', 'refund token-1']);
  });
});
