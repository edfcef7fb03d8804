/** How the gateway introduces itself in `initialize`. */
export const SERVER_INFO = { name: 'cairn', title: 'Cairn team memory', version: '0.1.0' };

/** Sent once per session in `initialize`: how an agent gets the most out of the tools. */
export const SERVER_INSTRUCTIONS = [
  'Cairn is the shared, persistent memory of your team and project.',
  'At the start of a session call recall_context: it briefs you on what changed since you were last here.',
  'Before answering from scratch, check memory_recall (facts, decisions, conventions) and kb_search (indexed docs).',
  'Store durable, reusable facts with memory_store (one fact per call, with keywords an agent would search for);',
  'keep scratch notes for this task with remember/forget. Never store secrets.',
  'Tools work in your token\'s default project: pass "project" (a project slug) only to reach another one.',
].join(' ');
