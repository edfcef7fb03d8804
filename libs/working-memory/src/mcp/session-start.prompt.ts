import { Injectable } from '@nestjs/common';
import { canAccessProject, type SessionPrincipal } from '@cairn/access';
import { SLUG_PATTERN } from '@cairn/common';
import { McpPrompt, type McpPromptHandler, ProtocolError } from '@cairn/mcp';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';

/**
 * The `session-start` prompt (a slash command in most clients): tells the agent to brief
 * itself with recall_context before working and to keep what it learns with memory_store.
 */
@Injectable()
@McpPrompt({
  name: 'session-start',
  title: 'Start a session with Cairn',
  description: 'Brief yourself on the project (recall_context) before starting work, and keep durable learnings.',
  arguments: [
    { name: 'project', description: "Project slug; omit to use the token's default project", required: false },
  ],
})
export class SessionStartPrompt implements McpPromptHandler {
  render(args: Record<string, string>, principal: SessionPrincipal): { description: string; text: string } {
    const project = args.project?.trim() || principal.defaultProject;
    if (project && !SLUG_PATTERN.test(project))
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'project: not a project slug');
    if (project && !canAccessProject(principal, project)) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `This token may not use project "${project.slice(0, 64)}"`,
      );
    }
    const call = project ? `recall_context with {"project": "${project}"}` : 'recall_context (naming your project)';
    const text = [
      `Before you start work, call ${call} and read the briefing: what changed since the last session,`,
      'your working memory, the last session summary and recent events by other agents.',
      'While you work, check memory_recall before re-deriving a decision, and keep scratch notes with remember.',
      'Whenever you learn something durable a future session would need (a decision, a convention, a gotcha,',
      'a fix), store it with memory_store: one fact per call, with keywords someone would search for. Never store secrets.',
      'At the end, summarize the session with session_summarize.',
    ].join(' ');
    return { description: `Session start${project ? ` for ${project}` : ''}`, text };
  }
}
