import { useEffect } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { ErrorMessage } from './ui/forms';
import { Loading } from './ui/layout';
import { useSession } from './session';
import { Shell } from './pages/Shell';
import { SignInPage } from './pages/SignInPage';
import { ResetPasswordPage } from './pages/ResetPasswordPage';
import { CreatePlatformAccountPage } from './pages/CreatePlatformAccountPage';
import { TokensPage } from './pages/TokensPage';
import { ProjectsPage } from './pages/ProjectsPage';
import { MemoryBrowserPage } from './pages/MemoryBrowserPage';
import { MemoryPage } from './pages/MemoryPage';
import { ReviewsPage } from './pages/ReviewsPage';
import { CoordinationPage } from './pages/CoordinationPage';
import { KnowledgePage } from './pages/KnowledgePage';
import { TimelinePage } from './pages/TimelinePage';
import { UsersPage } from './pages/UsersPage';
import { TenantsPage } from './pages/TenantsPage';
import { MigrationsPage } from './pages/MigrationsPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { OperationsPage } from './pages/OperationsPage';
import { AuditPage } from './pages/AuditPage';
import { SettingsPage } from './pages/SettingsPage';
import { AccountPage } from './pages/AccountPage';
import { TenantPage } from './pages/TenantPage';
import { OperatorsPage } from './pages/OperatorsPage';
import { ConsentRoute } from './pages/ConsentPage';
import { forgetReturnTo, pendingReturnTo } from './return-to';

/** Routes by session: public pages, then the tenant or platform pages of the signed-in role. */
export function App() {
  const { session, error } = useSession();
  return (
    <Switch>
      <Route path="/reset-password" component={ResetPasswordPage} />
      <Route path="/sign-in">{session ? <Redirect to="/" replace /> : <SignInPage />}</Route>
      {/* Any session, or none: the page itself sends a signed-out person to sign in and back. */}
      <Route path="/oauth/consent/:uid">{(params) => <ConsentRoute uid={params.uid} />}</Route>
      <Route>
        {session === undefined ? (
          <main className="centered">
            <Loading what="your session" />
          </main>
        ) : session === null ? (
          error ? (
            <main className="centered">
              <ErrorMessage error={error} />
            </main>
          ) : (
            <Redirect to="/sign-in" replace />
          )
        ) : session.mustCreateAccount ? (
          <CreatePlatformAccountPage />
        ) : (
          <Shell>{session.kind === 'platform' ? <PlatformRoutes /> : <TenantRoutes />}</Shell>
        )}
      </Route>
    </Switch>
  );
}

function TenantRoutes() {
  return (
    <Switch>
      <Route path="/">
        <Home fallback="/projects" />
      </Route>
      <Route path="/tokens" component={TokensPage} />
      <Route path="/projects" component={ProjectsPage} />
      <Route path="/projects/:project/memories/:id" component={MemoryPage} />
      <Route path="/projects/:project/reviews" component={ReviewsPage} />
      <Route path="/projects/:project/coordination" component={CoordinationPage} />
      <Route path="/projects/:project/knowledge" component={KnowledgePage} />
      <Route path="/projects/:project/timeline" component={TimelinePage} />
      <Route path="/projects/:project" component={MemoryBrowserPage} />
      <Route path="/users" component={UsersPage} />
      <Route path="/operations" component={OperationsPage} />
      <Route path="/audit" component={AuditPage} />
      <Route path="/settings" component={SettingsPage} />
      <Route path="/account" component={AccountPage} />
      <Route component={NotFoundPage} />
    </Switch>
  );
}

function PlatformRoutes() {
  return (
    <Switch>
      <Route path="/">
        <Home fallback="/tenants" />
      </Route>
      <Route path="/tenants" component={TenantsPage} />
      <Route path="/migrations" component={MigrationsPage} />
      <Route path="/tenants/:slug" component={TenantPage} />
      <Route path="/operators" component={OperatorsPage} />
      <Route path="/operations" component={OperationsPage} />
      <Route path="/audit" component={AuditPage} />
      <Route path="/account" component={AccountPage} />
      <Route component={NotFoundPage} />
    </Switch>
  );
}

/**
 * Where a fresh sign-in lands (a password sign-in comes here from /sign-in, an identity
 * provider's through the api's callback to /console/): the page that sent the person to sign in,
 * if one did (src/return-to.ts), else the home page of the session's kind. Read while rendering,
 * forgotten once shown, so it is used once.
 */
function Home({ fallback }: { readonly fallback: string }) {
  const target = pendingReturnTo() ?? fallback;
  useEffect(() => forgetReturnTo(), []);
  return <Redirect to={target} replace />;
}
