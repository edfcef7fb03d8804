import { type ConsentDetails } from '../api/oauth-api';

/**
 * What the consent page tells a person before they decide: who asks (in the application's own,
 * unchecked words, and what is actually known of it), and as whom it would act. The logo the
 * application names is not shown: fetching it would tell its owner who looked, and the console's
 * CSP allows no image from elsewhere.
 */
export function ApplicationFacts({ details }: { readonly details: ConsentDetails }) {
  const { client } = details;
  return (
    <section aria-labelledby="consent-app-heading" className="card">
      <h2 id="consent-app-heading">The application</h2>
      <dl className="details">
        <dt>Name</dt>
        <dd>
          {client.name ?? 'none given'} <span className="badge warn">unverified</span>
          <br />
          <span className="field-description">The application chose this name itself; Cairn has not checked it.</span>
        </dd>
        <dt>Client id</dt>
        <dd>
          <code>{client.id}</code>
        </dd>
        <dt>Described by</dt>
        <dd>{describedBy(client)}</dd>
        {client.uri && (
          <>
            <dt>Website</dt>
            <dd>{client.uri} (as it says)</dd>
          </>
        )}
        <dt>Sends you back to</dt>
        <dd>
          <code>{client.redirectUri}</code>
          {isLoopback(client.redirectUri) && ' (a program on this computer)'}
        </dd>
        <dt>Will use</dt>
        <dd>
          Cairn&apos;s MCP gateway, <code>{details.resource}</code>
        </dd>
      </dl>
    </section>
  );
}

export function PersonFacts({ details }: { readonly details: ConsentDetails }) {
  const { tenant, user } = details;
  return (
    <section aria-labelledby="consent-person-heading" className="card">
      <h2 id="consent-person-heading">Acting as you</h2>
      <dl className="details">
        <dt>Workspace</dt>
        <dd>
          {tenant.name} (<code>{tenant.slug}</code>)
        </dd>
        <dt>You</dt>
        <dd>
          {user.name}, {user.email}
        </dd>
        <dt>Your role</dt>
        <dd>{details.maxRole}</dd>
      </dl>
    </section>
  );
}

/**
 * What vouches for the application. A metadata document is served at its client id, an https
 * address, so the host there is what is known of who runs it; a registration is made by anyone.
 */
function describedBy(client: ConsentDetails['client']): string {
  if (!client.metadataDocument) {
    return 'Its own registration with this server: anyone can register an application, under any name.';
  }
  const url = urlOf(client.id);
  if (url?.protocol !== 'https:') return 'A metadata document at its client id.';
  return `Its metadata document at its client id, an https address: whoever controls ${url.host} describes it.`;
}

function isLoopback(uri: string): boolean {
  const host = urlOf(uri)?.hostname;
  return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
}

function urlOf(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}
