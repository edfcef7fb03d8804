/** What an agent's memory defaults to when it names no scope: the project, or private to the agent. */
export const AGENT_DEFAULT_SCOPES = ['project', 'private'] as const;
export type AgentDefaultScope = (typeof AGENT_DEFAULT_SCOPES)[number];
