import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from 'react';
import { onUnauthorized, setCsrfToken } from './api/client';
import { ApiError } from './api/errors';
import { sessionApi, type SessionView } from './api/session-api';

/** The signed-in session (undefined while unknown, null when signed out), shared by every page. */
interface SessionState {
  readonly session: SessionView | null | undefined;
  readonly error: unknown;
  /** The session held until now was found ended (signed out elsewhere, expired): the sign-in page says so. */
  readonly ended: boolean;
  /** Adopt the session a sign-in answered. */
  readonly signedIn: (session: SessionView) => void;
  readonly signOut: () => Promise<void>;
  readonly refresh: () => Promise<void>;
}

const SessionContext = createContext<SessionState | undefined>(undefined);

export function SessionProvider({ children }: { readonly children: ReactNode }) {
  const [session, setSession] = useState<SessionView | null | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [ended, setEnded] = useState(false);
  const held = useRef(false);

  const adopt = useCallback((next: SessionView | null) => {
    setCsrfToken(next?.csrfToken);
    held.current = next !== null;
    if (next) setEnded(false);
    setSession(next);
  }, []);

  const refresh = useCallback(async () => {
    try {
      adopt(await sessionApi.current());
      setError(undefined);
    } catch (failure) {
      adopt(null);
      // 401 is simply "not signed in"; anything else (the server down) is worth saying.
      setError(failure instanceof ApiError && failure.status === 401 ? undefined : failure);
    }
  }, [adopt]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  // A 401 while a session is held: ask whether it still stands; if not, the routes send the
  // browser to sign in, which says the session ended.
  useEffect(() => {
    onUnauthorized(() => {
      if (!held.current) return;
      void refresh().then(() => setEnded(!held.current));
    });
    return () => onUnauthorized(undefined);
  }, [refresh]);

  const signOut = useCallback(async () => {
    // Signing out on purpose: its own 401 (a session already gone) is no news to report.
    held.current = false;
    try {
      await sessionApi.logout();
    } finally {
      adopt(null);
    }
  }, [adopt]);

  return (
    <SessionContext.Provider value={{ session, error, ended, signedIn: adopt, signOut, refresh }}>
      {children}
    </SessionContext.Provider>
  );
}

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession outside SessionProvider');
  return state;
}

/** The tenant slug of a tenant session (every tenant page needs it). */
export function useTenantSlug(): string {
  const { session } = useSession();
  const slug = session?.tenant?.slug;
  if (!slug) throw new Error('a tenant page outside a tenant session');
  return slug;
}
