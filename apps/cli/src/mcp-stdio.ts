#!/usr/bin/env node
import { legacyBridgeArgv } from './bridge/legacy-options';
import { main } from './main';

/**
 * `cairn-mcp-stdio`: the name the stdio bridge had before `cairn mcp`, kept as an alias (the
 * package's `bin`) so client configurations that start it keep working: `--url` is its MCP
 * endpoint, the token comes from CAIRN_TOKEN; the offline cache joins in when CAIRN_URL (the
 * REST API) is set too.
 */
main(legacyBridgeArgv(process.argv.slice(2)));
