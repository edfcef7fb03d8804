import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { ApiError } from '../api/errors';
import { type ConsentChoice, type ConsentDetails, oauthApi } from '../api/oauth-api';
import { rememberReturnTo } from '../return-to';
import { useSession } from '../session';
import { useLoad } from '../ui/data';
import { ErrorMessage, Notice, PlainButton, PrimaryButton } from '../ui/forms';
import { Loading } from '../ui/layout';
import { AccessChoice, defaultRole, type ProjectScope } from '../ui/consent-choice';
import { ApplicationFacts, PersonFacts } from '../ui/consent-facts';

const TITLE = 'Authorize an application';
const PLATFORM_REFUSAL =
  'You are signed in as a platform operator. An application connects to Cairn as a person of a ' +
  "workspace, with that person's role and projects, so a platform operator cannot authorize one.";

/**
 * `/oauth/consent/:uid`, where Cairn's authorization server sends a person's browser when an
 * application asks for access (docs/oauth.md). Outside the signed-in frame: a signed-out person
 * is sent to sign in and brought back here (src/return-to.ts); a platform operator is told why
 * they cannot consent, and is never shown the request.
 */
export function ConsentRoute({ uid }: { readonly uid: string }) {
  const { session, error } = useSession();
  const [location, navigate] = useLocation();
  const signedOut = session === null && !error;
  useEffect(() => {
    if (!signedOut) return;
    rememberReturnTo(location);
    navigate('/sign-in', { replace: true });
  }, [signedOut, location, navigate]);
  if (session === undefined || signedOut) {
    return (
      <main className="centered consent">
        <Loading what="your session" />
      </main>
    );
  }
  if (session === null) {
    return (
      <main className="centered consent">
        <ErrorMessage error={error} />
      </main>
    );
  }
  if (session.kind === 'platform') return <OperatorRefusal />;
  return <ConsentPage uid={uid} />;
}

function OperatorRefusal() {
  const { signOut } = useSession();
  const [error, setError] = useState<unknown>(undefined);
  return (
    <main className="centered consent">
      <h1>{TITLE}</h1>
      <div role="alert" className="message error">
        {PLATFORM_REFUSAL}
      </div>
      <p>Sign out, then sign in with your workspace account: you will come back to this request.</p>
      <ErrorMessage error={error} />
      {/* Signed out, the route itself remembers this page and goes to sign in. */}
      <PrimaryButton
        onPress={() => {
          void signOut().catch(setError);
        }}
      >
        Sign out and use a workspace account
      </PrimaryButton>
    </main>
  );
}

function ConsentPage({ uid }: { readonly uid: string }) {
  const details = useLoad(() => oauthApi.details(uid), [uid]);
  return (
    <main className="centered consent">
      <h1>{TITLE}</h1>
      {details.loading && !details.data && <Loading what="the request" />}
      {details.error !== undefined && <ConsentError error={details.error} />}
      {details.data && <ConsentForm uid={uid} details={details.data} />}
    </main>
  );
}

/** The refusals a person can act on, in their words; anything else as the API says it. */
function ConsentError({ error }: { readonly error: unknown }) {
  let text: string | undefined;
  if (error instanceof ApiError && error.status === 404) {
    text =
      'This authorization request has expired, has been answered already, or was started in another ' +
      'browser. Go back to the application and connect it again.';
  } else if (error instanceof ApiError && error.code === 'person_required') {
    text = PLATFORM_REFUSAL;
  } else if (error instanceof ApiError && error.code === 'unknown_client') {
    text = 'The application is no longer known to Cairn. Go back to the application and connect it again.';
  }
  if (text === undefined) return <ErrorMessage error={error} />;
  return (
    <div role="alert" className="message error">
      {text}
    </div>
  );
}

function ConsentForm({ uid, details }: { readonly uid: string; readonly details: ConsentDetails }) {
  const [role, setRole] = useState(() => defaultRole(details));
  const [scope, setScope] = useState<ProjectScope>('all');
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [noProject, setNoProject] = useState(false);
  const named = details.client.name;

  const decide = (call: () => Promise<{ redirectTo: string }>) => {
    setBusy(true);
    setError(undefined);
    call().then(
      ({ redirectTo }) => {
        if (leaveFor(redirectTo)) {
          setLeaving(true);
          return;
        }
        setError(new Error('The server answered an address that is not a web page; nothing was opened.'));
        setBusy(false);
      },
      (failure: unknown) => {
        setError(failure);
        setBusy(false);
      },
    );
  };
  const allow = () => {
    if (scope === 'some' && chosen.length === 0) {
      setNoProject(true);
      return;
    }
    const choice: ConsentChoice = { role, projects: scope === 'all' ? '*' : chosen };
    decide(() => oauthApi.allow(uid, choice));
  };

  return (
    <>
      <p>
        <strong>{named ?? 'An application without a name'}</strong> asks to use Cairn&apos;s memory as you, through the
        MCP gateway. Check who it is and choose what it may do.
      </p>
      <ApplicationFacts details={details} />
      <PersonFacts details={details} />
      <AccessChoice
        details={details}
        role={role}
        onRole={setRole}
        scope={scope}
        onScope={(next) => {
          setScope(next);
          setNoProject(false);
        }}
        chosen={chosen}
        onChosen={(next) => {
          setChosen(next);
          setNoProject(false);
        }}
        noProject={noProject}
      />
      <p>
        Allowing gives {named ?? 'it'} access with this role and these projects until the grant expires or you revoke it
        under Your account, Connected applications.
      </p>
      {error !== undefined && <ConsentError error={error} />}
      {leaving && <Notice>Taking you back to the application…</Notice>}
      <div className="form-actions">
        <PrimaryButton isDisabled={busy} onPress={allow}>
          Allow
        </PrimaryButton>
        <PlainButton isDisabled={busy} onPress={() => decide(() => oauthApi.deny(uid))}>
          Deny
        </PlainButton>
      </div>
    </>
  );
}

/**
 * On to where the API says the browser goes next (the authorization server, which sends it back
 * to the application). Only a web address: a `javascript:` one would run script on this page.
 */
function leaveFor(redirectTo: string): boolean {
  let url: URL;
  try {
    url = new URL(redirectTo, window.location.href);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  window.location.assign(url.href);
  return true;
}
