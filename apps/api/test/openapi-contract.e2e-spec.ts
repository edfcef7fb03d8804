import { join } from 'node:path';
import { expectCommittedFile, prettyJson } from '@cairn/testing';
import { type ApiHarness, startApi } from './api-harness';

/**
 * The OpenAPI document is a public contract (clients are generated from it). It is committed
 * as apps/api/contract/openapi.json, so every change to it is deliberate and shows in review.
 */
describe('the OpenAPI contract', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  it('is exactly the committed document', async () => {
    const doc = await api.client.get('/docs/json');
    expect(doc.status).toBe(200);
    expectCommittedFile(join(__dirname, '..', 'contract', 'openapi.json'), prettyJson(doc.body));
  });
});
