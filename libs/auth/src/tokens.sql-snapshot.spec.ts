import { join } from 'node:path';
import { expectCommittedFile } from '@cairn/testing';
import { TOKEN_LOOKUP } from './tokens.sql';

/** The token lookup as TokensRepository.lookup sends it (libs/auth/sql/token-lookup.sql). */
describe('token lookup SQL', () => {
  it('matches the committed snapshot', () => {
    const text = [
      '-- Token lookup: every authenticated request of the api and the MCP gateway (TokenVerifier → TokensRepository.lookup,',
      `-- libs/auth/src/tokens.repository.ts), as the named prepared statement ${TOKEN_LOOKUP.name} on the shared pool.`,
      '-- $1 = SHA-256 of the presented token. A change to the text needs a new statement name (the line above).',
      `${TOKEN_LOOKUP.text};`,
    ].join('\n');
    expectCommittedFile(join(__dirname, '..', 'sql', 'token-lookup.sql'), text);
  });
});
