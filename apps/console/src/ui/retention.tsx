import { FieldError, Input, Label, Text, TextField } from 'react-aria-components';
import { type components } from '../api/openapi';

type Retention = components['schemas']['TenantSettingsDto_Output']['retention'];
export type RetentionChanges = NonNullable<components['schemas']['UpdateTenantSettingsDto']['retention']>;

/** The values a tenant may choose, with the API's bounds (libs/retention). */
const VALUES = [
  {
    key: 'auditLogDays',
    label: 'Audit log (days)',
    what: 'Entries of the audit log.',
    min: 30,
    max: 36_500,
    forever: true,
  },
  {
    key: 'external',
    label: 'External documents (days)',
    what: 'Fetched pages and other outside sources, counted from when they were last indexed.',
    min: 1,
    max: 3_650,
    forever: false,
  },
  {
    key: 'internal',
    label: 'Internal documents (days)',
    what: "The project's own notes and files, counted from when they were last indexed.",
    min: 1,
    max: 3_650,
    forever: false,
  },
  {
    key: 'summary',
    label: 'Summaries (days)',
    what: 'Session and file summaries, counted from when they were last indexed.',
    min: 1,
    max: 3_650,
    forever: false,
  },
] as const;

type Key = (typeof VALUES)[number]['key'];
/** What the fields hold: the tenant's own number as typed, or empty for the installation's default. */
export type RetentionDraft = Record<Key, string>;

const viewOf = (retention: Retention, key: Key) =>
  key === 'auditLogDays' ? retention.auditLogDays : retention.knowledgeBaseDays[key];
const days = (n: number) => (n === 0 ? 'forever' : `${n.toLocaleString('en')} day${n === 1 ? '' : 's'}`);

export function retentionDraftOf(retention: Retention): RetentionDraft {
  const draft = {} as RetentionDraft;
  for (const value of VALUES) draft[value.key] = String(viewOf(retention, value.key).tenant ?? '');
  return draft;
}

/** Why a field's text is refused, or undefined when the API would take it. */
function problem(text: string, value: (typeof VALUES)[number]): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const n = /^\d+$/.test(trimmed) ? Number(trimmed) : NaN;
  const range = `${value.min} to ${value.max.toLocaleString('en')}`;
  const wanted = value.forever ? `0 (keep forever) or ${range} days` : `${range} days`;
  if (!Number.isSafeInteger(n)) return `Enter a whole number of days: ${wanted}, or leave it empty.`;
  if ((value.forever && n === 0) || (n >= value.min && n <= value.max)) return undefined;
  return `Must be ${wanted}.`;
}

export function retentionProblems(draft: RetentionDraft): Partial<Record<Key, string>> {
  const problems: Partial<Record<Key, string>> = {};
  for (const value of VALUES) {
    const found = problem(draft[value.key], value);
    if (found) problems[value.key] = found;
  }
  return problems;
}

/** The change to send (numbers, null back to the default), or undefined when nothing changed. */
export function retentionChanges(draft: RetentionDraft, saved: Retention): RetentionChanges | undefined {
  const changes: { auditLogDays?: number | null; knowledgeBaseDays?: Record<string, number | null> } = {};
  for (const value of VALUES) {
    const text = draft[value.key].trim();
    const next = text === '' ? null : Number(text);
    if (next === viewOf(saved, value.key).tenant) continue;
    if (value.key === 'auditLogDays') changes.auditLogDays = next;
    else changes.knowledgeBaseDays = { ...changes.knowledgeBaseDays, [value.key]: next };
  }
  return Object.keys(changes).length === 0 ? undefined : changes;
}

/** The values a change keeps for less time than now ("Audit log: 365 days → 90 days"), to confirm first. */
export function shortenedBy(changes: RetentionChanges, saved: Retention): string[] {
  const lasting = (n: number) => (n === 0 ? Infinity : n);
  const shortened: string[] = [];
  for (const value of VALUES) {
    const chosen = value.key === 'auditLogDays' ? changes.auditLogDays : changes.knowledgeBaseDays?.[value.key];
    if (chosen === undefined) continue;
    const view = viewOf(saved, value.key);
    const next = chosen ?? view.default;
    if (lasting(next) < lasting(view.effective)) {
      shortened.push(`${value.label.replace(' (days)', '')}: ${days(view.effective)} → ${days(next)}`);
    }
  }
  return shortened;
}

/** The tenant's retention: one field per value, empty for the installation's default (named under it). */
export function RetentionFields({
  retention,
  draft,
  onChange,
  showProblems,
}: {
  readonly retention: Retention;
  readonly draft: RetentionDraft;
  readonly onChange: (draft: RetentionDraft) => void;
  readonly showProblems: boolean;
}) {
  const problems = showProblems ? retentionProblems(draft) : {};
  return (
    <fieldset className="fieldset">
      <legend>Retention</legend>
      <p className="field-description">
        How long the audit log and the knowledge base keep what they hold. The retention purge applies a change within
        moments of saving: whatever is older than a shortened period is deleted.
      </p>
      <div className="form-grid">
        {VALUES.map((value) => {
          const view = viewOf(retention, value.key);
          return (
            <TextField
              key={value.key}
              className="field"
              value={draft[value.key]}
              onChange={(text) => onChange({ ...draft, [value.key]: text })}
              isInvalid={problems[value.key] !== undefined}
              inputMode="numeric"
            >
              <Label>{value.label}</Label>
              <Input />
              <Text slot="description" className="field-description">
                {value.what} Now: {days(view.effective)}. Empty: the installation&apos;s {days(view.default)}.
              </Text>
              <FieldError className="field-error">{problems[value.key]}</FieldError>
            </TextField>
          );
        })}
      </div>
    </fieldset>
  );
}
