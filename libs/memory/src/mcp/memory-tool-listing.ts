import { toolListing } from '@cairn/mcp';
import { keywordsSchema, sourceSchema, tagsSchema } from '../contract/memory-fields.schema';
import { explanationSchema, recallSchema, searchFiltersSchema, searchReportSchema } from '../contract/memory-query.dto';
import {
  memorySchema,
  relationSchema,
  storeMemorySchema,
  updateMemorySchema,
  warningSchema,
  writeResultSchema,
} from '../contract/memory.dto';
import { historyResultSchema, relatedResultSchema } from '../contract/memory-tool.schemas';

/*
 * What the tool list shows of the schemas the memory tools share with the REST API (listing
 * only: validation and the REST documentation keep theirs). memory_get lists a memory's
 * fields; every other tool that returns one names it instead of repeating them. Arguments the
 * tool's description or name already explains carry no description of their own.
 */
toolListing.add(memorySchema, { summary: 'A memory, as memory_get returns it' });
toolListing.add(relationSchema, { summary: 'A relation, as memory_link returns it' });
// The write result's warnings in one line: the tool's text spells them out, and the default
// toolsets' list has no room for their fields twice (memory_store, memory_update).
toolListing.add(warningSchema, {
  summary: '{memoryId, content, reason, strength: weak|strong, recorded: a contradicts relation was stored}',
});
toolListing.add(relatedResultSchema.shape.items.element.shape.memory, {
  description: 'The memory at the other end, as memory_get returns it',
});
toolListing.add(explanationSchema, {
  summary: "With explain: each signal's rank and score, the boosts, the final score",
});
toolListing.add(memorySchema.shape.embedded, { description: 'Has a vector of the active model' });
// The scope says who sees it; the project is where it lives (a team memory: where it started).
toolListing.add(memorySchema.shape.project, { description: '' });
// The values speak for themselves in the list (its size budget); the REST documentation explains them.
toolListing.add(memorySchema.shape.scope, { description: '' });
toolListing.add(storeMemorySchema.shape.scope, { description: '' });
toolListing.add(historyResultSchema.shape.versions.element.shape.version, {
  description: 'Its version; memory.version is the current one',
});
toolListing.add(tagsSchema, { description: '' });
toolListing.add(keywordsSchema, { description: 'Synonyms a future question might use' });
toolListing.add(storeMemorySchema.shape.pinned, { description: 'Exempt from decay and pruning' });
toolListing.add(sourceSchema.unwrap().shape.path, { description: 'Repository-relative path' });
toolListing.add(sourceSchema.unwrap().shape.contentHash, { description: 'For memory_verify' });
toolListing.add(storeMemorySchema.shape.content, { description: 'The fact' });
toolListing.add(storeMemorySchema.shape.supersedes, { description: 'Older memories it replaces' });
toolListing.add(storeMemorySchema.shape.sensitive, {
  description: 'Encrypt it; reads show a placeholder for secret_get',
});
toolListing.add(storeMemorySchema.shape.occurredAt, { description: 'When it happened (default now)' });
toolListing.add(updateMemorySchema.shape.occurredAt, { description: '' });
toolListing.add(recallSchema.shape.asOf, { description: 'Dates in the query ("last week") count from it' });
toolListing.add(searchReportSchema.shape.temporal, { description: 'Dates in the query, as applied' });
toolListing.add(searchReportSchema.shape.rerank, { description: '' });
toolListing.add(memorySchema.shape.occurredAt, { description: '' });
toolListing.add(searchFiltersSchema.shape.scope, { description: 'Default: all' });
toolListing.add(searchFiltersSchema.shape.stale, { description: 'true: only stale; false: hide them' });
toolListing.add(recallSchema.shape.query, { description: '' });
// A number or "default" as one line: the union's structure would cost the default toolsets' budget.
toolListing.add(recallSchema.shape.minRelevance, { description: '', summary: '0-1, or "default"' });
toolListing.add(recallSchema.shape.explain, { description: '' });
// memory_update takes memory_store's fields, which memory_store's listing explains.
toolListing.add(updateMemorySchema.shape.source, { summary: 'As in memory_store; null removes it' });
toolListing.add(updateMemorySchema.shape.keywords, { description: '' });
// false on a sensitive memory needs new content: the error says so when it is missing.
toolListing.add(updateMemorySchema.shape.sensitive, { description: '' });
toolListing.add(memorySchema.shape.sensitive, { description: '' });
// The warning's one-line summary says what it is; write results need no second description.
toolListing.add(writeResultSchema.shape.warnings, { description: '' });
