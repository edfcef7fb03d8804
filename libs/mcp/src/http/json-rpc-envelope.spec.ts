import { envelopeProblem } from './json-rpc-envelope';

const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });

describe('envelopeProblem', () => {
  it('accepts one JSON-RPC request, notification or response', () => {
    expect(envelopeProblem(ping(1), '2025-11-25')).toBeUndefined();
    expect(envelopeProblem({ jsonrpc: '2.0', method: 'notifications/initialized' }, undefined)).toBeUndefined();
    expect(envelopeProblem({ jsonrpc: '2.0', id: 1, result: {} }, '2025-11-25')).toBeUndefined();
  });

  it('refuses JSON that is not a JSON-RPC message', () => {
    for (const body of [{}, 42, 'ping', null, { jsonrpc: '1.0', id: 1, method: 'ping' }, { id: 1, method: 'ping' }]) {
      expect(envelopeProblem(body, '2025-11-25')).toMatch(/^Invalid Request/);
    }
  });

  it('refuses batches from 2025-06-18 on and serves them to 2025-03-26 (or no header)', () => {
    const batch = [ping(1), ping(2)];
    for (const version of ['2025-06-18', '2025-11-25', '2026-07-28']) {
      expect(envelopeProblem(batch, version)).toMatch(/batches are not part of MCP/);
    }
    expect(envelopeProblem(batch, '2025-03-26')).toBeUndefined();
    expect(envelopeProblem(batch, undefined)).toBeUndefined();
    expect(envelopeProblem([], undefined)).toMatch(/empty batch/);
    expect(envelopeProblem([ping(1), { nope: true }], '2025-03-26')).toMatch(/batch element 1/);
  });
});
