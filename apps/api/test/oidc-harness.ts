/**
 * A browser for the OIDC sign-in tests over HTTP: it follows redirects with a cookie jar, signs in
 * through the identity provider's own login and consent forms (the real oidc-provider that
 * `startIdps` of @cairn/testing runs), and comes back to Cairn's callback.
 */

interface StoredCookie {
  readonly origin: string;
  readonly path: string;
  readonly name: string;
  readonly value: string;
}

/**
 * A browser, as far as these flows need one: cookies per origin and path (the IdP's interaction
 * cookies are path-scoped), redirects followed by hand so each hop can be looked at, and HTML
 * forms submitted as a person would. Requests to Cairn carry X-Forwarded-For: each browser
 * comes from an address of its own (Cairn trusts one proxy hop).
 */
export class OidcBrowser {
  private cookies: StoredCookie[] = [];

  constructor(
    private readonly cairn: string,
    readonly address: string,
  ) {}

  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const target = new URL(url);
    const cookie = this.cookies
      .filter((stored) => stored.origin === target.origin && target.pathname.startsWith(stored.path))
      .map((stored) => `${stored.name}=${stored.value}`)
      .join('; ');
    const response = await fetch(target, {
      method: init.method ?? 'GET',
      redirect: 'manual',
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(target.origin === this.cairn ? { 'x-forwarded-for': this.address } : {}),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
    });
    for (const header of response.headers.getSetCookie()) this.store(target, header);
    return response;
  }

  /** The value of a cookie this browser holds for Cairn, if any. */
  cookie(name: string): string | undefined {
    return this.cookies.find((stored) => stored.origin === this.cairn && stored.name === name)?.value;
  }

  /** Starts a sign-in at Cairn; answers the authorization URL Cairn sends the browser to (or its refusal). */
  async start(provider: string): Promise<string> {
    const response = await this.request(`${this.cairn}/v1/session/oidc/${provider}/start`);
    if (response.status !== 303) throw new Error(`start: ${response.status} ${await response.text()}`);
    return new URL(response.headers.get('location') as string, this.cairn).href;
  }

  /**
   * At the IdP: follows its redirects, signs in as `login` and consents when it asks, until it
   * sends the browser back to Cairn. Answers that URL, not yet followed.
   */
  async authorize(authorizationUrl: string, login: string): Promise<string> {
    let url = authorizationUrl;
    for (let hop = 0; hop < 12; hop += 1) {
      if (new URL(url).origin === this.cairn) return url;
      const response = await this.request(url);
      if (response.status >= 300 && response.status < 400) {
        url = new URL(response.headers.get('location') as string, url).href;
        continue;
      }
      const page = await response.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
      const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
      if (response.status !== 200 || !action || !prompt) throw new Error(`IdP page ${response.status}: ${page}`);
      const submitted = await this.request(new URL(action.replace(/&amp;/g, '&'), url).href, {
        method: 'POST',
        form: { prompt, login, password: 'any password: the development login takes any' },
      });
      url = new URL(submitted.headers.get('location') as string, url).href;
    }
    throw new Error('the IdP never sent the browser back');
  }

  /** Follows Cairn's callback; answers where Cairn sends the browser (`/console/` or the sign-in page with an error). */
  async callback(url: string): Promise<{ status: number; location: string; error: string | null }> {
    const response = await this.request(url);
    const location = response.headers.get('location') ?? '';
    return { status: response.status, location, error: new URL(location, this.cairn).searchParams.get('error') };
  }

  /** The whole sign-in: start at Cairn, sign in at the IdP, come back. */
  async signIn(provider: string, login: string) {
    const authorizationUrl = await this.start(provider);
    const refused = new URL(authorizationUrl);
    if (refused.origin === this.cairn) {
      return {
        status: 303,
        location: `${refused.pathname}${refused.search}`,
        error: refused.searchParams.get('error'),
      };
    }
    return this.callback(await this.authorize(authorizationUrl, login));
  }

  private store(target: URL, header: string): void {
    const [pair, ...attributes] = header.split(';').map((part) => part.trim());
    const name = pair.slice(0, pair.indexOf('='));
    const value = pair.slice(pair.indexOf('=') + 1);
    const pathAttribute = attributes.find((attribute) => /^path=/i.test(attribute));
    const path = pathAttribute ? pathAttribute.slice(5) : '/';
    const expired =
      attributes.some((attribute) => /^max-age=0$/i.test(attribute)) || /expires=Thu, 01 Jan 1970/i.test(header);
    this.cookies = this.cookies.filter(
      (stored) => !(stored.origin === target.origin && stored.path === path && stored.name === name),
    );
    if (!expired && value !== '') this.cookies.push({ origin: target.origin, path, name, value });
  }
}
