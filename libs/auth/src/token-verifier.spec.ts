import { type CairnConfig } from '@cairn/config';
import { generateSessionToken } from './token-format';
import { TokenVerifier } from './token-verifier.service';
import { type TokenLookup, type TokensRepository } from './tokens.repository';

const row: TokenLookup = {
  id: 'token-1',
  tenantId: 'tenant-1',
  tenantSlug: 'acme',
  tenantName: 'Acme',
  tenantSchema: 't_acme',
  tenantDeleted: false,
  userId: null,
  userRole: null,
  userDisabled: false,
  agentId: 'agent',
  role: 'agent',
  projects: ['web'],
  toolsets: null,
  defaultProject: null,
  createdAt: new Date(0),
  expiresAt: new Date(Date.now() + 3_600_000),
  revokedAt: null,
};

describe('TokenVerifier.knownIds', () => {
  it('knows a token’s ids once it was found valid, and forgets them when it no longer is', async () => {
    let current: TokenLookup | undefined = row;
    const tokens = {
      lookup: () => Promise.resolve(current),
      touch: () => Promise.resolve(),
    } as unknown as TokensRepository;
    const verifier = new TokenVerifier({ secrets: {} } as CairnConfig, tokens);
    const header = `Bearer ${generateSessionToken().token}`;

    expect(verifier.knownIds(header)).toBeUndefined();
    await verifier.authenticate(header);
    expect(verifier.knownIds(header)).toEqual({ tokenId: 'token-1', tenantId: 'tenant-1' });
    expect(verifier.knownIds(`Bearer ${generateSessionToken().token}`)).toBeUndefined();

    current = { ...row, revokedAt: new Date() };
    await expect(verifier.authenticate(header)).rejects.toThrow(/revoked/);
    expect(verifier.knownIds(header)).toBeUndefined();
  });
});
