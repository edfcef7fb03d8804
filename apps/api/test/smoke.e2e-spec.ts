import { type ApiHarness, startApi } from './api-harness';

describe('smoke', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  it('answers healthz', async () => {
    const response = await api.client.get('/healthz');
    expect(response.status).toBe(200);
    const ready = await api.client.get('/readyz');
    expect(ready.body).toMatchObject({ status: 'ready' });
  });
});
