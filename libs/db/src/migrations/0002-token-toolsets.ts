import { type Migration } from '../migration.types';

/** Session tokens name the MCP toolsets they enable and the project tool calls default to. */
export const tokenToolsets: Migration = {
  version: 2,
  name: 'token-toolsets',
  async up(sql) {
    // NULL toolsets = the defaults of the release that reads the token (DEFAULT_TOOLSETS).
    await sql(`ALTER TABLE cairn.session_tokens ADD COLUMN toolsets text[], ADD COLUMN default_project text`);
  },
};
