import { PERMISSIONS, PLATFORM_SESSION_PERMISSIONS, ROLE_PERMISSIONS, roleGrants, roleWithin } from './permissions';
import { ROLES } from './roles';

describe('permission table', () => {
  it('never grants platform permissions to a tenant role', () => {
    for (const role of ROLES) {
      for (const permission of ROLE_PERMISSIONS[role]) {
        expect(PERMISSIONS[permission].scope).not.toBe('platform');
      }
    }
  });

  it('gives the platform admin only session permissions it can use without a tenant', () => {
    for (const permission of PLATFORM_SESSION_PERMISSIONS) expect(PERMISSIONS[permission].scope).toBe('session');
  });

  it('keeps administration to admins', () => {
    for (const role of ROLES.filter((r) => r !== 'admin')) {
      expect(roleGrants(role, 'tenant.tokens.manage')).toBe(false);
      expect(roleGrants(role, 'tenant.users.manage')).toBe(false);
      expect(roleGrants(role, 'auth.introspect')).toBe(false);
    }
    expect(roleGrants('admin', 'tenant.tokens.manage')).toBe(true);
  });

  it('leaves data-key rotation to the platform admin: no tenant role, not even admin, holds it', () => {
    for (const role of ROLES) expect(roleGrants(role, 'tenant.keys.rotate')).toBe(false);
  });

  it('leaves directing the coordination channel to orchestrators and admins; readers only read it, not even ack', () => {
    for (const role of ROLES) {
      const directs = role === 'orchestrator' || role === 'admin';
      expect(roleGrants(role, 'broadcast.direct')).toBe(directs);
      expect(roleGrants(role, 'broadcast.key.manage')).toBe(directs);
      expect(roleGrants(role, 'broadcast.read')).toBe(true);
      expect(roleGrants(role, 'broadcast.post')).toBe(role !== 'reader');
    }
  });

  it('lets every role ask who it is', () => {
    for (const role of ROLES) expect(roleGrants(role, 'auth.whoami')).toBe(true);
  });

  it('caps token roles by user roles', () => {
    expect(roleWithin('reader', 'admin')).toBe(true);
    expect(roleWithin('admin', 'member')).toBe(false);
    for (const role of ROLES) expect(roleWithin(role, role)).toBe(true);
  });
});
