import { type Migration } from '@cairn/db';

/**
 * The token that indexed a knowledge-base document, as memories record it (`author_token_id`):
 * a service token with neither a user nor an agent id is still the author of what it wrote,
 * so it may replace or delete its own documents. Existing rows have none and stay a
 * maintainer's to remove, as before.
 */
export const kbDocumentTokenAuthor: Migration = {
  version: 16,
  name: 'kb-document-token-author',
  async up(sql) {
    await sql(`ALTER TABLE kb_documents ADD COLUMN author_token_id uuid`);
  },
};
