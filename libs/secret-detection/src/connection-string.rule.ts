import { gitleaksAllowlistPatterns, globalAllowlist } from './gitleaks-rules';
import { type ScanRule, type SecretSpan } from './scan-rule';

/**
 * The one rule Cairn adds to gitleaks' set: the password of a URL-style connection string
 * (`postgres://app:…@db:5432/app`, `mongodb+srv://…`, `redis://:…@cache:6379`, `amqp://…`,
 * `https://user:…@host`). gitleaks has no rule for them (its generic rule needs an assignment
 * keyword and high entropy, and `hunter2` in a DSN is a secret all the same), and they are what
 * teams paste most. Only the password is reported, so a redacted DSN still names its host.
 *
 * Not a hand-written format: candidates are found by the shape `scheme://userinfo@host`, and
 * Node's WHATWG URL parser decides whether the text is a URL with a password. Placeholders are
 * recognised with gitleaks' own allow lists: its global one on the password (`${DB_PASSWORD}`,
 * `{{ .password }}`, `****`), and its curl-auth-user one on the whole `user:password`
 * (`user:password`, `user:changeme`, `<user>:<password>`).
 */
const CANDIDATE = /\b[a-z][a-z0-9+.-]{1,30}:\/\/([^\s/?#'"`<>]{1,512})@[^\s/?#'"`<>@]+/dgi;

export class ConnectionStringRule implements ScanRule {
  readonly ruleId = 'cairn:connection-string-password';
  readonly type = 'connection-string-password';
  readonly tier = 'high' as const;
  readonly keywords = ['://'];
  readonly generic = false;
  private readonly placeholderCredentials = gitleaksAllowlistPatterns('curl-auth-user');
  private readonly placeholderSecrets = globalAllowlist();

  find(text: string): SecretSpan[] {
    const spans: SecretSpan[] = [];
    const candidate = new RegExp(CANDIDATE.source, CANDIDATE.flags);
    for (let match = candidate.exec(text); match; match = candidate.exec(text)) {
      const userinfo = match[1] ?? '';
      const [from, to] = match.indices?.[1] ?? [0, 0];
      const colon = userinfo.indexOf(':');
      if (colon < 0 || colon === userinfo.length - 1) continue;
      const password = this.passwordOf(match[0]);
      if (password === undefined || this.isPlaceholder(userinfo, password)) continue;
      spans.push({ start: from + colon + 1, end: to });
    }
    return spans;
  }

  /** The decoded password when the text parses as a URL with one. */
  private passwordOf(url: string): string | undefined {
    try {
      const password = new URL(url).password;
      return password === '' ? undefined : decodeURIComponent(password);
    } catch {
      return undefined;
    }
  }

  private isPlaceholder(userinfo: string, password: string): boolean {
    const lowered = password.toLowerCase();
    return (
      this.placeholderCredentials.some((pattern) => pattern.test(userinfo)) ||
      this.placeholderSecrets.regexes.some((pattern) => pattern.test(password)) ||
      this.placeholderSecrets.stopwords.some((word) => lowered.includes(word))
    );
  }
}
