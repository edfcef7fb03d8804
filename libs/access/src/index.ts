export {
  ALLOWED_BEFORE_ACCOUNT,
  AllowedBeforeAccount,
  Audited,
  AUDIT_ACTION,
  CurrentPrincipal,
  RequirePermission,
  REQUIRED_PERMISSION,
} from './decorators';
export {
  type Permission,
  PERMISSIONS,
  type PermissionScope,
  PLATFORM_SESSION_PERMISSIONS,
  ROLE_PERMISSIONS,
  roleGrants,
  roleWithin,
} from './permissions';
export {
  actorOf,
  agentKeyOf,
  type Author,
  authorOf,
  type BrowserSessionRef,
  canAccessProject,
  type CredentialKind,
  type PlatformPrincipal,
  type Principal,
  type SessionPrincipal,
} from './principal';
export { assertProjectAccess, assertScopeWithin, searchScope } from './project-access';
export { isRole, type Role, ROLES } from './roles';
export { DEFAULT_TOOLSETS, isToolset, type Toolset, TOOLSETS } from './toolsets';
