// @ts-check
/**
 * Every library's tier, in one place: `.dependency-cruiser.cjs` builds the tier rules from it
 * (a tier imports only its own and the tiers below: platform ← engines ← features), a test fails
 * when a library under libs/ is missing or listed twice, and docs/architecture.md renders the
 * table below from it (`npm run snapshots`).
 *
 * - platform: what every process runs on, whatever it serves (configuration, logs, the database
 *   pool and the tenant scope, identities and their permissions, the audit trail, projects).
 * - engines: machinery several features use to do their work and none owns (frameworks for the
 *   adapters, ranking, models, encryption, fetching), and the composition of the two for the apps.
 * - features: one thing an agent or operator asks for each; a feature may build on another.
 */

/** @type {Record<'platform' | 'engines' | 'features', Record<string, string>>} */
const TIERS = {
  platform: {
    common: 'errors with codes, text and number helpers every library shares',
    config: 'the validated configuration object, built once at boot',
    observability: 'logs, metrics, request context and the health routes',
    db: 'the shared pool, control-schema migrations and advisory locks',
    redis: 'the shared Redis connection',
    server: 'the Fastify app, the error filter, graceful shutdown',
    integrity:
      "the shipped files checked at start against the build's sha256 manifest (off, warn, strict), pure (no Nest)",
    access: 'principals, roles, the permission table and project scope checks',
    tenancy: 'tenants, their schemas and migrations, and the one entry into a tenant',
    auth: 'tokens, users and the global access guard',
    audit: 'the hash-chained audit trail every state-changing call writes',
    projects: "the tenant's projects, which partition almost every table",
  },
  engines: {
    jobs: 'the job catalogue, queues, handler registry and workers (each job entered into its tenant)',
    mcp: 'the MCP tool registry, executor and Streamable HTTP route',
    search: 'the one ranking statement, fusion, query vectors and reranking for every corpus',
    embeddings: 'the embedder, embedding targets, backfills and vector indexes',
    providers: 'HTTP clients for Ollama, OpenAI-compatible and rerank servers',
    generation: 'generation requests, prompting and model calls with their caps',
    'secret-detection':
      "gitleaks' rules, the scanner and placeholder redaction, pure (no Nest): shared by the server and the cairn command",
    secrets: 'the redaction every write path calls, sealed originals, data-key rotation',
    encryption: 'envelope encryption under per-tenant data keys and the master key',
    'safe-fetch': 'fetching a URL from outside without reaching inside',
    temporal: 'dates in questions read against a reference time',
    infrastructure: 'the platform and the engines every process runs (jobs, embeddings, search), composed for the apps',
  },
  features: {
    accounts: 'people: local accounts, second factor, browser sessions and password links',
    oauth:
      'the OAuth 2.1 authorization server for MCP clients (oidc-provider), consent, grants, and the gateway’s check of its tokens',
    memory: 'long-term memories: store, recall, links, contradictions',
    'memory-hygiene': 'decay, prune, duplicates and merge of memories',
    'memory-review': 'the review queue, promotions and decisions',
    'memory-sharing': 'shares and tag share rules between identities',
    'memory-sync': 'the change feed, export and import',
    'working-memory': "an agent's scratchpad, session events and the briefing",
    knowledge: 'the project knowledge base: documents, chunks, fetched pages',
    summaries: 'file and session summaries',
    'project-card': 'the project card an agent reads first: derived from the code index, edited by the team, versioned',
    'code-index':
      'the code index: files per branch, symbols and references (tree-sitter), passages, the derived project card',
    'context-check':
      'context_check: one question against memories, knowledge base and code index, with a calibrated confidence',
    extraction: 'fact extraction from transcripts into proposals',
    retention: "how long a tenant's audit log and knowledge base are kept: the installation's days or its own",
    maintenance: "the scheduled per-tenant runs of the other features' upkeep",
    coordination: 'the broadcast channel between agents',
    status: 'what the service and its search can do right now',
    'web-console': 'the built web console under /console, with its Content-Security-Policy',
  },
};

/** Tiers from the bottom up: a library may import its own tier and those before it. */
const ORDER = /** @type {const} */ (['platform', 'engines', 'features']);

module.exports = { TIERS, ORDER };
