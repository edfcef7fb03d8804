import { quotedSchema, schemaNameFor, tenantSearchPath } from './tenant-ref';

describe('tenant schema names', () => {
  it('derive from the tenant id only', () => {
    expect(schemaNameFor('00000000-0000-0000-0000-000000000000')).toBe('t_0');
    const name = schemaNameFor('f47ac10b-58cc-4372-a567-0e02b2c3d479');
    expect(name).toMatch(/^t_[0-9a-z]{1,25}$/);
    expect(schemaNameFor('F47AC10B-58CC-4372-A567-0E02B2C3D479')).toBe(name);
  });

  it('refuse anything that is not a uuid', () => {
    expect(() => schemaNameFor('acme"; DROP SCHEMA cairn; --')).toThrow();
  });

  it('are quoted only when they have the shape we create', () => {
    expect(quotedSchema('t_abc123')).toBe('"t_abc123"');
    expect(() => quotedSchema('public')).toThrow();
    expect(() => quotedSchema('t_x"; drop')).toThrow();
    expect(tenantSearchPath('t_abc')).toBe('"t_abc", public');
  });
});
