import { retentionChangesSchema } from './contract/retention.types';
import { choicesOf, effectiveOf, viewOf, withChanges } from './retention-choices';

const DEFAULTS = { auditLogDays: 365, knowledgeBaseDays: { external: 14, internal: 30, summary: 365 } };

describe('a tenant’s retention choices', () => {
  it('follows the installation where the tenant chose nothing', () => {
    const view = viewOf(choicesOf(undefined), DEFAULTS);
    expect(view.auditLogDays).toEqual({ effective: 365, tenant: null, default: 365 });
    expect(view.knowledgeBaseDays.summary).toEqual({ effective: 365, tenant: null, default: 365 });
    expect(effectiveOf(view)).toEqual(DEFAULTS);
  });

  it('applies the tenant’s own values, keeps the others, and null goes back to the default', () => {
    const chosen = withChanges({}, { auditLogDays: 0, knowledgeBaseDays: { external: 3 } });
    expect(chosen).toEqual({ auditLogDays: 0, knowledgeBaseDays: { external: 3 } });
    const more = withChanges(chosen, { knowledgeBaseDays: { internal: 90 } });
    expect(more).toEqual({ auditLogDays: 0, knowledgeBaseDays: { external: 3, internal: 90 } });
    expect(effectiveOf(viewOf(more, DEFAULTS))).toEqual({
      auditLogDays: 0,
      knowledgeBaseDays: { external: 3, internal: 90, summary: 365 },
    });
    const reset = withChanges(more, { auditLogDays: null, knowledgeBaseDays: { external: null, internal: null } });
    expect(reset).toEqual({});
  });

  it('reads a stored value that no longer parses as never chosen, value by value', () => {
    expect(choicesOf({ auditLogDays: 5, knowledgeBaseDays: { external: 7, internal: -1, summary: 'x' } })).toEqual({
      knowledgeBaseDays: { external: 7 },
    });
    expect(choicesOf('nonsense')).toEqual({});
    expect(choicesOf({ knowledgeBaseDays: null })).toEqual({});
  });

  it('takes whole days within the bounds, null to reset, and nothing unknown', () => {
    const ok = (body: unknown) => retentionChangesSchema.safeParse(body).success;
    expect(ok({ auditLogDays: 0 })).toBe(true);
    expect(ok({ auditLogDays: 30 })).toBe(true);
    expect(ok({ auditLogDays: 36_500 })).toBe(true);
    expect(ok({ auditLogDays: null, knowledgeBaseDays: { summary: 3_650 } })).toBe(true);
    expect(ok({ knowledgeBaseDays: { external: 1 } })).toBe(true);
    for (const bad of [
      {},
      { auditLogDays: -1 },
      { auditLogDays: 29 },
      { auditLogDays: 36_501 },
      { auditLogDays: 90.5 },
      { auditLogDays: '90' },
      { knowledgeBaseDays: {} },
      { knowledgeBaseDays: { external: 0 } },
      { knowledgeBaseDays: { internal: 3_651 } },
      { knowledgeBaseDays: { archive: 3 } },
      { days: 3 },
    ]) {
      expect({ bad, ok: ok(bad) }).toEqual({ bad, ok: false });
    }
  });
});
