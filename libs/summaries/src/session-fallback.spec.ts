import { fallbackSessionSummary, SESSION_SUMMARY_MAX_CHARS } from './session-fallback';

describe('session summary fallback', () => {
  it('keeps the start, decisions, problems, files, next steps and the end', () => {
    const transcript = [
      'User: Let us fix the flaky checkout test.',
      'Assistant: Looking at apps/web/src/checkout.test.ts now.',
      'Assistant: The test failed with TypeError: cannot read properties of undefined.',
      'User: We decided to mock the payment client instead of calling the sandbox.',
      'Assistant: Updated src/payments/client.ts accordingly.',
      'User: Next step: remove the sandbox credentials from CI.',
      'Assistant: Done for today.',
    ].join('\n');
    const summary = fallbackSessionSummary(transcript);
    expect(summary).toContain('Started with: User: Let us fix the flaky checkout test.');
    expect(summary).toContain('Decisions:\n- We decided to mock the payment client');
    expect(summary).toContain('Problems:\n- The test failed with TypeError');
    expect(summary).toContain('Files: apps/web/src/checkout.test.ts, src/payments/client.ts');
    expect(summary).toContain('Next steps:\n- Next step: remove the sandbox credentials from CI.');
    expect(summary).toContain('Ended with:');
  });

  it('stays within the cap for long transcripts', () => {
    const transcript = Array.from(
      { length: 3_000 },
      (_, i) => `line ${i}: we decided on option ${i}; error ${i} in file${i}.ts; need to follow up ${i}`,
    ).join('\n');
    expect(fallbackSessionSummary(transcript).length).toBeLessThanOrEqual(SESSION_SUMMARY_MAX_CHARS);
    expect(fallbackSessionSummary('x'.repeat(100_000)).length).toBeLessThanOrEqual(SESSION_SUMMARY_MAX_CHARS);
  });
});
