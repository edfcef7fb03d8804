import { type Migration } from '../migration.types';
import { controlSchema } from './0001-control-schema';
import { tokenToolsets } from './0002-token-toolsets';
import { tenantDataKeys } from './0003-tenant-data-keys';
import { authChangeNotices } from './0004-auth-change-notices';
import { auditOutbox } from './0005-audit-outbox';
import { accounts } from './0006-accounts';
import { tenantSuspension } from './0007-tenant-suspension';
import { oidcIdentities } from './0008-oidc-identities';
import { platformDataKeys } from './0009-platform-data-keys';
import { oauth } from './0010-oauth';
import { trigramExtension } from './0011-trigram-extension';
import { tenantPlacement } from './0012-tenant-placement';
import { tenantMigrationBaseline } from './0013-tenant-migration-baseline';

/** Control-schema migrations in order. Append only; never edit one that has shipped. */
export const CONTROL_MIGRATIONS: readonly Migration[] = [
  controlSchema,
  tokenToolsets,
  tenantDataKeys,
  authChangeNotices,
  auditOutbox,
  accounts,
  tenantSuspension,
  oidcIdentities,
  platformDataKeys,
  oauth,
  trigramExtension,
  tenantPlacement,
  tenantMigrationBaseline,
];
