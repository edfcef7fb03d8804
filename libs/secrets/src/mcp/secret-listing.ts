import { toolListing } from '@cairn/mcp';
import { secretCountSchema } from '../contract/secret.dto';

// Write results of several default-toolset tools carry `redacted`; listed in one line each,
// the default tool list stays within its budget (the tool's text spells the counts out).
toolListing.add(secretCountSchema, { summary: '{type, count}' });
