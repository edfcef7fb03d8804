import { type ReactNode, useEffect, useRef } from 'react';
import { Link, useLocation } from 'wouter';
import { PlainButton } from '../ui/forms';
import { useSession } from '../session';

interface NavItem {
  readonly href: string;
  readonly label: string;
  /** Shown only to sessions holding it (their `permissions`). */
  readonly permission?: string;
}

const TENANT_NAV: readonly NavItem[] = [
  { href: '/projects', label: 'Projects and memories' },
  { href: '/tokens', label: 'Tokens' },
  { href: '/users', label: 'Users' },
  { href: '/operations', label: 'Operations', permission: 'tenant.jobs.manage' },
  { href: '/audit', label: 'Audit log', permission: 'tenant.audit.read' },
  { href: '/settings', label: 'Settings', permission: 'tenant.settings.manage' },
  { href: '/account', label: 'Your account' },
];
const PLATFORM_NAV: readonly NavItem[] = [
  { href: '/tenants', label: 'Tenants' },
  { href: '/migrations', label: 'Migration status' },
  { href: '/operators', label: 'Operators', permission: 'platform.accounts.manage' },
  { href: '/operations', label: 'Operations', permission: 'platform.queues.manage' },
  { href: '/audit', label: 'Audit log', permission: 'platform.audit.read' },
  { href: '/account', label: 'Your account' },
];
/** Pages a role may use (the API refuses the rest anyway; this keeps the menu honest). */
const ADMIN_ONLY = new Set(['/tokens', '/users']);

/** The frame of every signed-in page: skip link, header with who is signed in, navigation by role, sign-out. */
export function Shell({ children }: { readonly children: ReactNode }) {
  const { session, signOut } = useSession();
  const [location, navigate] = useLocation();
  const main = useRef<HTMLElement>(null);
  // Move focus to the page on navigation, so screen readers start at the new content.
  useEffect(() => {
    main.current?.focus();
  }, [location]);
  if (!session) return null;
  const items = (session.kind === 'platform' ? PLATFORM_NAV : TENANT_NAV).filter(
    (item) =>
      (session.role === 'admin' || !ADMIN_ONLY.has(item.href)) &&
      (!item.permission || session.permissions.includes('*') || session.permissions.includes(item.permission)),
  );
  const who = session.account?.email ?? (session.kind === 'platform' ? 'platform operator' : 'token');
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">Cairn</span>
        <span className="context">
          {session.kind === 'platform' ? 'Platform' : (session.tenant?.name ?? session.tenant?.slug)}
        </span>
        <span className="who">
          {who} · {session.role}
        </span>
        <PlainButton
          onPress={() => {
            void signOut().then(() => navigate('/sign-in'));
          }}
        >
          Sign out
        </PlainButton>
      </header>
      <nav className="sidebar" aria-label="Console">
        <ul>
          {items.map((item) => {
            const current = location === item.href || location.startsWith(`${item.href}/`);
            return (
              <li key={item.href}>
                <Link href={item.href} aria-current={current ? 'page' : undefined}>
                  {item.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <main id="main" ref={main} tabIndex={-1} className="content">
        {children}
      </main>
    </div>
  );
}
