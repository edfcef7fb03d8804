import { type OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import { issuerCheck, metadataIssuerProblem } from './issuer-checks';

const metadata = (issuer: string, announced?: boolean) =>
  ({
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    response_types_supported: ['code'],
    ...(announced === undefined ? {} : { authorization_response_iss_parameter_supported: announced }),
  }) as OAuthDiscoveryState['authorizationServerMetadata'];

describe('metadataIssuerProblem (RFC 8414 §3.3)', () => {
  const prm = { resource: 'https://mcp.example/mcp' };

  it('takes metadata naming the issuer it was looked up for, exactly', () => {
    const state = {
      authorizationServerUrl: 'https://as.example',
      resourceMetadata: prm,
      authorizationServerMetadata: metadata('https://as.example'),
    };
    expect(metadataIssuerProblem(state)).toBeUndefined();
  });

  it('refuses metadata naming another issuer, or the same one with a trailing slash, when the resource named the server', () => {
    for (const issuer of ['https://attacker.example', 'https://as.example/']) {
      const state = {
        authorizationServerUrl: 'https://as.example',
        resourceMetadata: prm,
        authorizationServerMetadata: metadata(issuer),
      };
      expect(metadataIssuerProblem(state)).toContain(issuer);
    }
  });

  it("forgives only the slash of the SDK's origin fallback, when no resource metadata named a server", () => {
    const fallback = {
      authorizationServerUrl: 'https://mcp.example/',
      authorizationServerMetadata: metadata('https://mcp.example'),
    };
    expect(metadataIssuerProblem(fallback)).toBeUndefined();
    expect(
      metadataIssuerProblem({ ...fallback, authorizationServerMetadata: metadata('https://other.example') }),
    ).toBeDefined();
    expect(metadataIssuerProblem({ authorizationServerUrl: 'https://mcp.example/' })).toBeUndefined();
  });
});

describe('issuerCheck (RFC 9207)', () => {
  const answer = (iss?: string) =>
    new URLSearchParams({ code: 'c', state: 's', ...(iss === undefined ? {} : { iss }) });

  it('accepts the recorded issuer, and no iss from a server that does not announce it', () => {
    expect(issuerCheck(metadata('https://as.example', true))(answer('https://as.example'))).toBeUndefined();
    expect(issuerCheck(metadata('https://as.example'))(answer())).toBeUndefined();
  });

  it('refuses a missing iss that was announced, and any other issuer, announced or not, without normalising', () => {
    expect(issuerCheck(metadata('https://as.example', true))(answer())).toContain('has none');
    expect(issuerCheck(metadata('https://as.example', true))(answer('https://evil.example'))).toContain('evil');
    expect(issuerCheck(metadata('https://as.example'))(answer('https://evil.example'))).toContain('evil');
    expect(issuerCheck(metadata('https://as.example', true))(answer('https://as.example/'))).toBeDefined();
  });
});
