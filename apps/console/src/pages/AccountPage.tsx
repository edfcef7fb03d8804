import { useSession } from '../session';
import { formatDate, PageHeader } from '../ui/layout';
import { OwnConnectedApplications } from '../ui/connected-apps';
import { ActiveSessions } from '../ui/sessions';
import { SecondFactor } from '../ui/totp';

/**
 * Everyone's own account: who they are, the second factor, their sessions, and (a person of a
 * tenant) the applications they connected with OAuth: a platform operator can authorize none.
 */
export function AccountPage() {
  const { session } = useSession();
  if (!session) return null;
  const browser = session.via === 'browser';
  return (
    <>
      <PageHeader title="Your account" />
      <div className="card">
        <dl className="details">
          <dt>Name</dt>
          <dd>{session.account?.name ?? '—'}</dd>
          <dt>Email</dt>
          <dd>{session.account?.email ?? '—'}</dd>
          <dt>Role</dt>
          <dd>
            {session.role}
            {session.tenant && ` in ${session.tenant.name}`}
          </dd>
          <dt>This session ends</dt>
          <dd>
            {formatDate(session.expiresAt)}
            {session.idleExpiresAt && `, or at ${formatDate(session.idleExpiresAt)} unless used before then`}
          </dd>
        </dl>
      </div>
      {browser && session.account && <SecondFactor />}
      {browser && session.account && <ActiveSessions />}
      {browser && session.account && session.kind === 'tenant' && <OwnConnectedApplications />}
    </>
  );
}
