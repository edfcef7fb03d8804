import { type Pipeline, startPipeline, waitForRequest } from './summaries-harness';

const DB_PASSWORD = 'Xk29fLq7rTzQ';
const PLACEHOLDER = /\[SECRET:([a-z0-9-]+):([A-Za-z0-9_-]+)\]/;

/** Extraction: the transcript is redacted when submitted, so proposals and memories made from it carry placeholders. */
describe('secrets in extraction transcripts and proposals', () => {
  let p: Pipeline;
  const url = (suffix: string) => `/v1/projects/${p.w.project}${suffix}`;

  beforeAll(async () => {
    p = await startPipeline({ CHAT_PROVIDER: 'none' });
  });
  afterAll(() => p?.close());

  it('proposes facts with placeholders, keeps the original for the requester, and accepts them as is', async () => {
    const transcript = `User: We decided to use postgres://app:${DB_PASSWORD}@db.internal:5432/app for the event store.`;
    const posted = await p.w.agent.post(url('/extract'), { transcript });
    expect(posted.status).toBe(202);
    const done = await waitForRequest(p.w.agent, p.w.project, posted.body.requestId);
    expect(done.body).toMatchObject({ status: 'done', result: { mode: 'proposals', candidates: 1 } });

    const pending = await p.w.reader.get(url('/proposals'));
    const [proposal] = pending.body.items;
    expect(proposal.content).toMatch(PLACEHOLDER);
    expect(JSON.stringify(pending.body)).not.toContain(DB_PASSWORD);
    const stored = await p.sql(`SELECT content FROM {schema}.memory_proposals UNION ALL
                                SELECT coalesce(input, '') FROM {schema}.generation_requests`);
    expect(JSON.stringify(stored)).not.toContain(DB_PASSWORD);

    const id = PLACEHOLDER.exec(proposal.content)![2];
    expect((await p.w.agent.get(url(`/secrets/${id}`))).body.value).toBe(DB_PASSWORD);
    expect((await p.w.otherAgent.get(url(`/secrets/${id}`))).status).toBe(404);

    const accepted = await p.w.member.post(url(`/proposals/${proposal.id}/accept`), {});
    expect(accepted.status).toBe(200);
    const memory = await p.w.reader.get(url(`/memories/${accepted.body.proposal.memoryId}`));
    expect(memory.body.content).toBe(proposal.content);
  });

  it('refuses the transcript under "reject"', async () => {
    const settings = `/v1/tenants/${p.w.tenant.slug}/settings`;
    await p.w.admin.patch(settings, { secrets: 'reject' });
    try {
      const posted = await p.w.agent.post(url('/extract'), {
        transcript: `User: We decided the key is ghp_Zq8vN3kT5wR1yL7pC2xM9bH4dF6gJ0sA1b2c.`,
      });
      expect(posted.status).toBe(400);
      expect(posted.body.error).toMatchObject({ code: 'secrets_rejected' });
      expect(JSON.stringify(posted.body)).not.toContain('ghp_');
    } finally {
      await p.w.admin.patch(settings, { secrets: 'redact' });
    }
  });
});
