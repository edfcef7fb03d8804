import { type ReactNode } from 'react';
import { Link } from 'wouter';
import { type components } from '../api/openapi';

export type Memory = components['schemas']['MemoryDto_Output'];

/** One memory in a result list: its content and what matters to judge it at a glance. */
export function MemoryItem({
  project,
  memory,
  score,
  children,
}: {
  project: string;
  memory: Memory;
  score?: number;
  /** Shown under the memory (a search result's ranking explanation). */
  children?: ReactNode;
}) {
  const preview = memory.content.length > 280 ? `${memory.content.slice(0, 280)}…` : memory.content;
  return (
    <li className="memory-item">
      <Link href={`/projects/${project}/memories/${memory.id}`} className="memory-link">
        {preview}
      </Link>
      <div className="memory-meta">
        <span className="badge">{memory.category}</span>
        <span>{memory.scope}</span>
        {memory.tags.length > 0 && <span>tags: {memory.tags.join(', ')}</span>}
        <span>importance {memory.importance}</span>
        {memory.stale && <span className="badge warn">stale</span>}
        {memory.archived && <span className="badge">archived</span>}
        {memory.pinned && <span className="badge">pinned</span>}
        {!memory.embedded && <span className="badge">not embedded yet</span>}
        {score !== undefined && <span>score {score.toFixed(3)}</span>}
        <span>by {memory.author.agentId ?? memory.author.userId ?? 'unknown'}</span>
      </div>
      {children}
    </li>
  );
}
