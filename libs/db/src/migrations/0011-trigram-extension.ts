import { type Migration } from '../migration.types';

/**
 * pg_trgm, for the code index's fuzzy symbol search (similarity over symbol names). It ships
 * with PostgreSQL's contrib modules and is a trusted extension, so the database owner may
 * create it where it is not there yet; managed PostgreSQL services allow it too.
 */
export const trigramExtension: Migration = {
  version: 11,
  name: 'trigram-extension',
  async up(sql) {
    await sql(`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`);
  },
};
