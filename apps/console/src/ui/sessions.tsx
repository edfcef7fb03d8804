import { useState } from 'react';
import { useLocation } from 'wouter';
import { sessionApi } from '../api/session-api';
import { useSession } from '../session';
import { useLoad } from './data';
import { DangerButton, ErrorMessage, Notice, PlainButton } from './forms';
import { formatDate, Loading, ModalDialog } from './layout';

/** The account's live browser sessions: end one, or all of them (this one included). */
export function ActiveSessions() {
  const { signOut } = useSession();
  const [, navigate] = useLocation();
  const list = useLoad(() => sessionApi.sessions(), []);
  const [error, setError] = useState<unknown>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  return (
    <section aria-labelledby="sessions-heading">
      <div className="section-header">
        <h2 id="sessions-heading">Active sessions</h2>
        <ModalDialog title="Sign out everywhere?" trigger={<DangerButton>Sign out everywhere</DangerButton>}>
          {(close) => (
            <>
              <p>Every session of your account ends, this one too; you sign in again here.</p>
              <div className="form-actions">
                <DangerButton
                  onPress={() => {
                    sessionApi
                      .logoutEverywhere()
                      .then(() => signOut().catch(() => undefined))
                      .then(() => navigate('/sign-in'), setError)
                      .finally(close);
                  }}
                >
                  End every session
                </DangerButton>
                <PlainButton onPress={close} autoFocus>
                  Cancel
                </PlainButton>
              </div>
            </>
          )}
        </ModalDialog>
      </div>
      {notice && <Notice>{notice}</Notice>}
      <ErrorMessage error={error ?? list.error} />
      {list.loading && !list.data && <Loading what="your sessions" />}
      {list.data && (
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Browser</th>
                <th scope="col">Address</th>
                <th scope="col">Signed in</th>
                <th scope="col">Last active</th>
                <th scope="col">Ends</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((session, index) => (
                <tr key={session.id}>
                  <td>
                    {session.userAgent ?? 'unknown browser'}
                    {session.current && (
                      <>
                        {' '}
                        <span className="badge ok">this session</span>
                      </>
                    )}
                  </td>
                  <td>{session.ip ?? '—'}</td>
                  <td>{formatDate(session.createdAt)}</td>
                  <td>{formatDate(session.lastSeenAt)}</td>
                  <td>{formatDate(session.expiresAt)}</td>
                  <td>
                    {!session.current && (
                      <DangerButton
                        aria-label={`End session ${index + 1}, signed in ${formatDate(session.createdAt)}`}
                        onPress={() => {
                          setError(undefined);
                          sessionApi.endSession(session.id).then(() => {
                            setNotice('Session ended.');
                            list.reload();
                          }, setError);
                        }}
                      >
                        End session
                      </DangerButton>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
