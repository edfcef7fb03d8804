import { defaultSecretRules } from './default-rules';
import { KeywordPrefilter } from './keyword-prefilter';
import { type ScanRule } from './scan-rule';

const rule = (ruleId: string, keywords: string[]): ScanRule => ({
  ruleId,
  type: ruleId,
  tier: 'high',
  keywords,
  generic: false,
  find: () => [],
});

/** The plain definition the one-pass search must agree with. */
const naive = (keywords: readonly string[], text: string) =>
  new Set(keywords.filter((keyword) => text.toLowerCase().includes(keyword.toLowerCase())));

describe('KeywordPrefilter', () => {
  it('finds every keyword present, including ones inside or overlapping others', () => {
    const keywords = ['key', 'keyword', 'ey', 'word', 'api', 'pi-', 'x'];
    const prefilter = new KeywordPrefilter(keywords.map((keyword) => rule(keyword, [keyword])));
    for (const text of ['a KEYWORD here', 'the api-gateway', 'ey', 'Keyboard', 'nothing', '', 'xkeyx']) {
      expect(prefilter.present(text)).toEqual(naive(keywords, text));
    }
  });

  it('agrees with a substring search for every keyword of the default rules', () => {
    const rules = defaultSecretRules();
    const keywords = [...new Set(rules.flatMap((r) => r.keywords))];
    const prefilter = new KeywordPrefilter(rules);
    const text =
      'export GITHUB_TOKEN=ghp_abc; curl -u admin:pw https://hooks.slack.com/x; Heroku and Datadog keys, ' +
      '-----BEGIN RSA PRIVATE KEY----- AKIA sk_live_ xoxb- eyJ lin_api_ dp.pt. password: s3cret';
    expect(prefilter.present(text)).toEqual(naive(keywords, text));
  });

  it('offers a rule only when one of its keywords occurs, and always offers a rule without keywords', () => {
    const always = rule('always', []);
    const github = rule('github', ['ghp_', 'gho_']);
    const prefilter = new KeywordPrefilter([github, always]);
    expect(prefilter.candidates('no tokens here')).toEqual([always]);
    expect(prefilter.candidates('GHO_abc')).toEqual([github, always]);
  });
});
