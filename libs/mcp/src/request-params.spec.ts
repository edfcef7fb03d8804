import { invalidParamsOf } from './request-params';

const call = (params: unknown) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params });

describe('invalidParamsOf', () => {
  it('passes well-formed requests, notifications and unknown methods to the SDK', () => {
    expect(invalidParamsOf(call({ name: 'memory_recall', arguments: { query: 'x' } }))).toBeUndefined();
    expect(invalidParamsOf({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBeUndefined();
    expect(invalidParamsOf({ jsonrpc: '2.0', id: 2, method: 'no/such/method' })).toBeUndefined();
    expect(invalidParamsOf(undefined)).toBeUndefined();
  });

  it('names the method and the offending field, without a dump of validator internals', () => {
    const reason = invalidParamsOf(call({ name: 'memory_recall', arguments: 'not an object' }));
    expect(reason).toMatch(/^Invalid params for tools\/call: params\.arguments: /);
    expect(reason).not.toContain('"code"');
    expect(invalidParamsOf({ jsonrpc: '2.0', id: 3, method: 'initialize', params: {} })).toMatch(/initialize/);
  });

  it('refuses a batch by its first bad element', () => {
    const batch = [call({ name: 'a' }), call({ name: 42 })];
    expect(invalidParamsOf(batch)).toMatch(/^batch element 1: Invalid params for tools\/call: params\.name/);
  });
});
