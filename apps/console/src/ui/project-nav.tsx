import { type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { PageHeader } from './layout';
import { useCan } from './permissions';

interface Section {
  readonly path: string;
  readonly label: string;
  /** The permission the section's API needs: without it the section is not offered. */
  readonly permission: string;
}

const SECTIONS: readonly Section[] = [
  { path: '', label: 'Memories', permission: 'memory.read' },
  { path: '/reviews', label: 'Review queue', permission: 'memory.review' },
  { path: '/coordination', label: 'Coordination', permission: 'broadcast.read' },
  { path: '/knowledge', label: 'Knowledge base', permission: 'kb.read' },
  { path: '/timeline', label: 'Session timeline', permission: 'context.read' },
];

/** A project page's heading and the links between the project's sections (one landmark per project). */
export function ProjectHeader({
  project,
  title,
  children,
}: {
  readonly project: string;
  readonly title: string;
  readonly children?: ReactNode;
}) {
  const [location] = useLocation();
  const can = useCan();
  const base = `/projects/${project}`;
  const current = (section: Section) =>
    section.path === ''
      ? location === base || location.startsWith(`${base}/memories`)
      : location.startsWith(`${base}${section.path}`);
  return (
    <>
      <PageHeader title={title}>{children}</PageHeader>
      <nav className="project-nav" aria-label={`Project ${project}`}>
        <ul>
          {SECTIONS.filter((section) => can(section.permission)).map((section) => (
            <li key={section.path}>
              <Link href={`${base}${section.path}`} aria-current={current(section) ? 'page' : undefined}>
                {section.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </>
  );
}
