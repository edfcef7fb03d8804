import { request as httpRequest } from 'node:http';
import {
  connectClient,
  type GatewayWorld,
  rpc,
  startGatewayWorld,
  tenantWithProjects,
  tokenFor,
} from './gateway-harness';

interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
  readonly json: any;
}

/** `fetch` will not let a caller choose the Host header; node:http will. */
function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: options.method ?? 'POST',
        headers: {
          Accept: 'application/json, text/event-stream',
          'Content-Type': 'application/json',
          ...options.headers,
        },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => {
          let json: unknown;
          try {
            json = JSON.parse(body);
          } catch {
            json = undefined;
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body, json });
        });
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

/**
 * What the official conformance suite and hand probes found the gateway getting wrong at the
 * protocol level (issue 13): own origin, batches, non-JSON-RPC bodies, the resource's name,
 * CORS preflight and doubled error prefixes. No MCP_ALLOWED_ORIGINS and no MCP_PUBLIC_URL here.
 */
describe('MCP gateway protocol conformance', () => {
  let world: GatewayWorld;
  let token: string;
  let port: string;
  const bearer = () => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    world = await startGatewayWorld();
    const { tenant, projects } = await tenantWithProjects(world, 1);
    token = await tokenFor(world, tenant.slug, { role: 'agent', projects, agentId: 'conformance:probe' });
    port = new URL(world.mcpUrl).port;
  });
  afterAll(async () => {
    await world?.close();
  });

  describe('Origin without MCP_ALLOWED_ORIGINS (DNS rebinding scenario)', () => {
    it("serves a page of the gateway's own loopback origin, as the suite's valid-localhost probe sends it", async () => {
      for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
        const answer = await raw(world.mcpUrl, {
          headers: { ...bearer(), Host: host, Origin: `http://${host}` },
          body: rpc('tools/list'),
        });
        expect({ host, status: answer.status }).toEqual({ host, status: 200 });
      }
    });

    it('refuses a foreign origin, another port of the same host, and a rebinding Host with its own Origin', async () => {
      const probes = [
        { Host: `localhost:${port}`, Origin: 'http://evil.example.com' },
        { Host: `localhost:${port}`, Origin: 'http://localhost:1' },
        { Host: `localhost:${port}`, Origin: `https://localhost:${port}` },
        { Host: `localhost:${port}`, Origin: 'null' },
        { Host: 'evil.example.com', Origin: 'http://evil.example.com' },
      ];
      for (const headers of probes) {
        const answer = await raw(world.mcpUrl, { headers: { ...bearer(), ...headers }, body: rpc('tools/list') });
        expect({ headers, status: answer.status }).toEqual({ headers, status: 403 });
        expect(answer.json).toMatchObject({ jsonrpc: '2.0', error: { code: -32003 } });
      }
    });
  });

  describe('JSON-RPC envelope', () => {
    const batch = JSON.stringify([JSON.parse(rpc('ping', {}, 1)), JSON.parse(rpc('tools/list', {}, 2))]);

    it('refuses a batch under 2025-06-18 and later with 400 and -32600', async () => {
      for (const version of ['2025-11-25', '2025-06-18']) {
        const answer = await raw(world.mcpUrl, {
          headers: { ...bearer(), 'MCP-Protocol-Version': version },
          body: batch,
        });
        expect({ version, status: answer.status }).toEqual({ version, status: 400 });
        expect(answer.json).toMatchObject({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: expect.stringMatching(/batch/i) },
        });
      }
    });

    it('still serves a batch from a 2025-03-26 client (explicit, or no header: the spec says assume 2025-03-26)', async () => {
      for (const headers of [{ 'MCP-Protocol-Version': '2025-03-26' }, {}] as Record<string, string>[]) {
        const answer = await raw(world.mcpUrl, { headers: { ...bearer(), ...headers }, body: batch });
        expect(answer.status).toBe(200);
        expect((answer.json as { id: number }[]).map((item) => item.id).sort()).toEqual([1, 2]);
      }
    });

    it('answers a batch with one answer as a one-element array, not a bare object (JSON-RPC 2.0 §6)', async () => {
      const one = JSON.stringify([JSON.parse(rpc('ping', {}, 7))]);
      const withNotification = JSON.stringify([
        JSON.parse(rpc('tools/list', {}, 8)),
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } },
      ]);
      for (const headers of [{ 'MCP-Protocol-Version': '2025-03-26' }, {}] as Record<string, string>[]) {
        for (const [body, id] of [
          [one, 7],
          [withNotification, 8],
        ] as const) {
          const answer = await raw(world.mcpUrl, { headers: { ...bearer(), ...headers }, body });
          expect({ headers, status: answer.status, isArray: Array.isArray(answer.json) }).toEqual({
            headers,
            status: 200,
            isArray: true,
          });
          expect((answer.json as { id: number }[]).map((item) => item.id)).toEqual([id]);
        }
      }
      // A single message (no batch) is still answered with a single object.
      const single = await raw(world.mcpUrl, { headers: bearer(), body: rpc('ping', {}, 9) });
      expect(single.json).toMatchObject({ jsonrpc: '2.0', id: 9 });
    });

    it('answers valid JSON that is not a JSON-RPC message with 400 and -32600, not a parse error', async () => {
      const bodies = [
        '{}',
        '42',
        '"ping"',
        'null',
        '{"jsonrpc":"1.0","id":1,"method":"ping"}',
        '{"jsonrpc":"2.0","id":1}',
        '{"id":7,"method":"ping"}',
        '[]',
        '[1]',
      ];
      for (const body of bodies) {
        const answer = await raw(world.mcpUrl, { headers: bearer(), body });
        expect({ body, status: answer.status, code: answer.json?.error?.code }).toEqual({
          body,
          status: 400,
          code: -32600,
        });
      }
      // The id is kept when the message has a usable one.
      const withId = await raw(world.mcpUrl, { headers: bearer(), body: '{"id":7,"method":"ping"}' });
      expect(withId.json.id).toBe(7);
      // Text that is not JSON at all stays a parse error.
      const broken = await raw(world.mcpUrl, { headers: bearer(), body: '{"jsonrpc":' });
      expect(broken.json.error.code).toBe(-32700);
    });
  });

  describe('protected resource metadata without MCP_PUBLIC_URL', () => {
    const metadataPath = '/.well-known/oauth-protected-resource/mcp';

    it('names the resource by a Host that is this machine', async () => {
      const answer = await raw(`${world.gateways[0].url}${metadataPath}`, {
        method: 'GET',
        headers: { Host: `localhost:${port}` },
      });
      expect(answer.status).toBe(200);
      expect(answer.json.resource).toBe(`http://localhost:${port}/mcp`);
    });

    it('refuses to echo a Host that does not name this machine', async () => {
      for (const host of ['evil.example.com', 'evil.example.com:443', 'cairn.example.com']) {
        const answer = await raw(`${world.gateways[0].url}${metadataPath}`, { method: 'GET', headers: { Host: host } });
        expect({ host, status: answer.status }).toEqual({ host, status: 404 });
        expect(answer.body).not.toContain(host);
        expect(answer.json.error.message).toMatch(/MCP_PUBLIC_URL/);
      }
    });
  });

  describe('CORS', () => {
    const own = () => `http://localhost:${port}`;
    const preflight = (origin: string) =>
      raw(world.mcpUrl, {
        method: 'OPTIONS',
        headers: {
          Host: `localhost:${port}`,
          Origin: origin,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization, content-type, mcp-protocol-version',
        },
      });

    it('answers a preflight from an allowed origin with the MCP request headers', async () => {
      const answer = await preflight(own());
      expect(answer.status).toBe(204);
      expect(answer.headers['access-control-allow-origin']).toBe(own());
      expect(answer.headers['access-control-allow-methods']).toContain('POST');
      const allowed = String(answer.headers['access-control-allow-headers']).split(/,\s*/);
      expect(allowed).toEqual(
        expect.arrayContaining([
          'authorization',
          'content-type',
          'mcp-protocol-version',
          'mcp-session-id',
          'last-event-id',
        ]),
      );
    });

    it('gives a foreign origin no preflight and no CORS headers', async () => {
      const answer = await preflight('http://evil.example.com');
      expect(answer.status).toBe(404);
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('lets an allowed page read mcp-session-id and WWW-Authenticate', async () => {
      const unauthenticated = await raw(world.mcpUrl, {
        headers: { Host: `localhost:${port}`, Origin: own() },
        body: rpc('tools/list'),
      });
      expect(unauthenticated.status).toBe(401);
      expect(unauthenticated.headers['access-control-allow-origin']).toBe(own());
      const exposed = String(unauthenticated.headers['access-control-expose-headers']).split(/,\s*/);
      expect(exposed).toEqual(expect.arrayContaining(['mcp-session-id', 'www-authenticate']));
    });
  });

  describe('logging', () => {
    it('declares the logging capability and accepts logging/setLevel (conformance scenario logging-set-level)', async () => {
      const client = await connectClient(world.mcpUrl, token);
      try {
        expect(client.getServerCapabilities()?.logging).toEqual({});
        await expect(client.setLoggingLevel('info')).resolves.toEqual({});
      } finally {
        await client.close();
      }
    });
  });

  describe('error messages', () => {
    it('carries the SDK prefix once for an unknown tool and a refused prompt', async () => {
      const client = await connectClient(world.mcpUrl, token);
      try {
        const tool = await client.callTool({ name: 'no_such_tool', arguments: {} }).catch((error: Error) => error);
        expect((tool as Error).message).toBe('MCP error -32602: Unknown tool: no_such_tool');
        const prompt = await client
          .getPrompt({ name: 'session-start', arguments: { project: 'Not A Slug' } })
          .catch((error: Error) => error);
        expect((prompt as Error).message).toBe('MCP error -32602: project: not a project slug');
        const missing = await client.getPrompt({ name: 'no_such_prompt' }).catch((error: Error) => error);
        expect((missing as Error).message).toBe('MCP error -32602: Unknown prompt: no_such_prompt');
      } finally {
        await client.close();
      }
    });
  });
});
