import { LoopbackCallback } from './loopback-callback';

describe('LoopbackCallback (RFC 8252 §7.3)', () => {
  let loopback: LoopbackCallback;
  beforeEach(async () => (loopback = await LoopbackCallback.listen()));
  afterEach(() => loopback.close());

  const visit = async (query: Record<string, string>) => {
    const response = await fetch(`${loopback.url}?${new URLSearchParams(query).toString()}`);
    return { status: response.status, text: await response.text() };
  };

  it('listens on 127.0.0.1 and hands over the code of the answer carrying the awaited state only', async () => {
    expect(loopback.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const code = loopback.waitForCode('right', () => undefined, 5_000);
    // A stray or forged request changes nothing.
    expect((await visit({ code: 'forged', state: 'wrong' })).status).toBe(400);
    expect(await visit({ code: 'the-code', state: 'right' })).toMatchObject({
      status: 200,
      text: expect.stringContaining('authorized'),
    });
    await expect(code).resolves.toBe('the-code');
  });

  it("ends the wait on the server's error answer and on a refused check, saying why", async () => {
    // Awaited after the visit: the expectation is attached first, as the provider attaches its handler.
    const denied = expect(loopback.waitForCode('s1', () => undefined, 5_000)).rejects.toThrow(
      'access_denied: no thanks',
    );
    await visit({ state: 's1', error: 'access_denied', error_description: 'no thanks' });
    await denied;
    const refused = expect(loopback.waitForCode('s2', () => 'wrong issuer', 5_000)).rejects.toThrow('wrong issuer');
    expect((await visit({ state: 's2', code: 'c' })).text).toContain('wrong issuer');
    await refused;
  });

  it('gives up when no answer comes in time', async () => {
    await expect(loopback.waitForCode('s', () => undefined, 50)).rejects.toThrow('no answer from the browser');
  });
});
