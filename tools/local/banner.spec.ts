import { bannerLines, type BannerInput } from './banner';

const input = (overrides: Partial<BannerInput> = {}): BannerInput => ({
  apiPort: 8080,
  mcpPort: 8081,
  workerPort: 8082,
  databaseUrl: 'postgresql://cairn:secret@127.0.0.1:54329/cairn',
  redisUrl: 'redis://127.0.0.1:63799',
  adminToken: { command: `node -p 'require("./.cairn/secrets.json").adminToken'` },
  tenantsExist: false,
  notReady: [],
  ...overrides,
});
const text = (lines: ReturnType<typeof bannerLines>) => lines.map((line) => line.text).join('\n');

describe("npm start's summary", () => {
  it('gives an export line that reads the admin token from secrets.json, and the first-tenant hint on the api port', () => {
    const lines = bannerLines(input({ apiPort: 9180, mcpPort: 9181, workerPort: 9182 }));
    expect(lines.filter((line) => line.paste).map((line) => line.text)).toEqual([
      `export CAIRN_ADMIN_TOKEN=$(node -p 'require("./.cairn/secrets.json").adminToken')`,
      `curl -s -X POST http://127.0.0.1:9180/v1/tenants -H "Authorization: Bearer $CAIRN_ADMIN_TOKEN" ` +
        `-H 'content-type: application/json' -d '{"slug":"acme","name":"Acme"}'`,
    ]);
    expect(text(lines)).toContain('http://127.0.0.1:9181/mcp');
    expect(text(lines)).toContain('console      http://localhost:9180/console/');
    expect(text(lines)).not.toMatch(/808\d/);
    expect(text(lines)).not.toContain(':secret@');
  });

  it('leaves the first-tenant hint out once a tenant exists, and shows it when that is unknown', () => {
    expect(text(bannerLines(input({ tenantsExist: true })))).not.toContain('/v1/tenants');
    expect(text(bannerLines(input({ tenantsExist: undefined })))).toContain('/v1/tenants');
  });

  it('does not repeat a token that came from the environment, and names apps that are not ready', () => {
    const lines = bannerLines(input({ adminToken: 'environment', notReady: ['worker'] }));
    expect(text(lines)).toContain('admin token  from CAIRN_ADMIN_TOKEN');
    expect(text(lines)).not.toContain('export CAIRN_ADMIN_TOKEN');
    expect(text(lines)).toContain('running, but not ready yet: worker');
  });

  it('names the OAuth authorization server only when it is on', () => {
    expect(text(bannerLines(input()))).not.toContain('oauth');
    expect(text(bannerLines(input({ oauthIssuer: 'http://localhost:8080' })))).toContain(
      'oauth        http://localhost:8080  (authorization server; people consent in the console)',
    );
  });
});
