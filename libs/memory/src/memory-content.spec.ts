import { memoryRerankText } from './memory-content';

describe('memoryRerankText', () => {
  it('adds the keywords to a short memory only', () => {
    expect(memoryRerankText('Deploys go through Argo', ['gitops', 'kubernetes'])).toBe(
      'Deploys go through Argo\ngitops, kubernetes',
    );
    expect(memoryRerankText('Deploys go through Argo', [])).toBe('Deploys go through Argo');
    const long = `Deploys go through Argo ${'and are reviewed '.repeat(20)}`;
    expect(memoryRerankText(long, ['gitops'])).toBe(long);
  });

  it('sends at most 2,000 characters', () => {
    expect(memoryRerankText('x'.repeat(8_000), [])).toHaveLength(2_000);
  });
});
