import { type Migration } from '../migration.types';

/**
 * People signing in through an identity provider (@cairn/accounts, docs/sign-in.md, "OIDC
 * federation"): which account a provider's subject (`sub`) is. The person is found by email at
 * the first sign-in and by this link afterwards, so a later change of email at the provider
 * keeps the same Cairn user.
 *
 * - One link per (provider, subject, tenant): a subject may be mapped into a tenant by a claim,
 *   and an account belongs to one tenant.
 * - One subject per (account, provider): a second subject of the same provider claiming an
 *   already linked user's email is refused (the email was reassigned at the provider, or
 *   someone else holds it), rather than taking that user over.
 * - `provider` is the id in OIDC_PROVIDERS; renaming it in the configuration starts afresh.
 */
export const oidcIdentities: Migration = {
  version: 8,
  name: 'oidc-identities',
  async up(sql) {
    await sql(`
      CREATE TABLE cairn.oidc_identities (
        provider text NOT NULL,
        subject text NOT NULL,
        tenant_id uuid NOT NULL REFERENCES cairn.tenants (id) ON DELETE CASCADE,
        account_id uuid NOT NULL REFERENCES cairn.accounts (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_sign_in_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (provider, subject, tenant_id),
        UNIQUE (account_id, provider)
      )`);
  },
};
