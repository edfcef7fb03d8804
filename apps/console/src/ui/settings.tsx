import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { Form, Label, Radio, RadioGroup, Text, TextArea, TextField } from 'react-aria-components';
import { api, ok } from '../api/client';
import { type components } from '../api/openapi';
import { useLoad } from './data';
import { DangerButton, ErrorMessage, Notice, PlainButton, PrimaryButton } from './forms';
import { Loading, ModalDialog } from './layout';
import {
  type RetentionChanges,
  type RetentionDraft,
  retentionChanges,
  retentionDraftOf,
  RetentionFields,
  retentionProblems,
  shortenedBy,
} from './retention';

type Settings = components['schemas']['TenantSettingsDto_Output'];
type Update = components['schemas']['UpdateTenantSettingsDto'];

const hostLines = (hosts: readonly string[]) => hosts.join('\n');
const hostList = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((host) => host.trim().toLowerCase())
    .filter(Boolean);
const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

function Choice<T extends string>({
  label,
  description,
  value,
  onChange,
  options,
}: {
  label: string;
  description: string;
  value: T;
  onChange: (value: T) => void;
  options: readonly { value: T; label: ReactNode }[];
}) {
  return (
    <RadioGroup className="radio-group stacked" value={value} onChange={(v) => onChange(v as T)}>
      <Label>{label}</Label>
      <Text slot="description" className="field-description">
        {description}
      </Text>
      {options.map((option) => (
        <Radio key={option.value} value={option.value}>
          {option.label}
        </Radio>
      ))}
    </RadioGroup>
  );
}

function HostsField({
  label,
  description,
  value,
  onChange,
}: {
  label: string;
  description: string;
  value: string;
  onChange: (v: string) => void;
}) {
  return (
    <TextField className="field" value={value} onChange={onChange}>
      <Label>{label}</Label>
      <TextArea rows={3} />
      <Text slot="description" className="field-description">
        {description}
      </Text>
    </TextField>
  );
}

/** The tenant's settings (GET/PATCH /v1/tenants/{slug}/settings): only what changed is sent. */
export function TenantSettingsForm({ tenant }: { tenant: string }) {
  const loaded = useLoad(
    () => ok(api.GET('/v1/tenants/{slug}/settings', { params: { path: { slug: tenant } } })),
    [tenant],
  );
  const [saved, setSaved] = useState<Settings | undefined>(undefined);
  const [draft, setDraft] = useState<Settings | undefined>(undefined);
  const [allow, setAllow] = useState('');
  const [deny, setDeny] = useState('');
  const [retention, setRetention] = useState<RetentionDraft | undefined>(undefined);
  const [showProblems, setShowProblems] = useState(false);
  /** A change that shortens retention, waiting for confirmation. */
  const [pending, setPending] = useState<{ changes: Update; shortened: string[] } | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const adopt = (settings: Settings) => {
    setSaved(settings);
    setDraft(settings);
    setAllow(hostLines(settings.fetchAllowHosts));
    setDeny(hostLines(settings.fetchDenyHosts));
    setRetention(retentionDraftOf(settings.retention));
    setShowProblems(false);
  };
  useEffect(() => {
    if (loaded.data) adopt(loaded.data);
  }, [loaded.data]);
  if (!draft || !saved || !retention) {
    return loaded.error ? <ErrorMessage error={loaded.error} /> : <Loading what="the settings" />;
  }
  const set =
    <K extends keyof Settings>(key: K) =>
    (value: Settings[K]) =>
      setDraft({ ...draft, [key]: value });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(undefined);
    setNotice(undefined);
    const changes: Update = {};
    if (draft.extractionMode !== saved.extractionMode) changes.extractionMode = draft.extractionMode;
    if (draft.secrets !== saved.secrets) changes.secrets = draft.secrets;
    if (draft.agentDefaultScope !== saved.agentDefaultScope) changes.agentDefaultScope = draft.agentDefaultScope;
    if (!sameList(hostList(allow), saved.fetchAllowHosts)) changes.fetchAllowHosts = hostList(allow);
    if (!sameList(hostList(deny), saved.fetchDenyHosts)) changes.fetchDenyHosts = hostList(deny);
    if (Object.keys(retentionProblems(retention)).length > 0) {
      setShowProblems(true);
      setError(new Error('Some retention values cannot be saved; see the fields above.'));
      return;
    }
    const retained: RetentionChanges | undefined = retentionChanges(retention, saved.retention);
    if (retained) changes.retention = retained;
    if (Object.keys(changes).length === 0) {
      setNotice('Nothing changed.');
      return;
    }
    const shortened = retained ? shortenedBy(retained, saved.retention) : [];
    if (shortened.length > 0) setPending({ changes, shortened });
    else void send(changes);
  };
  const send = (changes: Update) =>
    ok(api.PATCH('/v1/tenants/{slug}/settings', { params: { path: { slug: tenant } }, body: changes })).then(
      (settings) => {
        adopt(settings);
        setNotice('Settings saved.');
      },
      setError,
    );
  return (
    <Form onSubmit={submit} className="card form" aria-labelledby="settings-heading">
      <h2 id="settings-heading">Tenant settings</h2>
      <Choice
        label="Review policy for extracted facts"
        description="What happens to the facts extracted from a transcript."
        value={draft.extractionMode}
        onChange={set('extractionMode')}
        options={[
          { value: 'proposals', label: 'Proposals: they wait for a member to review them' },
          { value: 'memories', label: 'Memories: stored at once' },
        ]}
      />
      <Choice
        label="Default scope of an agent's memory"
        description="The scope of a memory an agent stores without naming one."
        value={draft.agentDefaultScope}
        onChange={set('agentDefaultScope')}
        options={[
          { value: 'project', label: 'Project: the whole team of the project sees it' },
          { value: 'private', label: 'Private: only its author' },
        ]}
      />
      <Choice
        label="Secrets in written text"
        description="Secrets found in what agents write (tokens, keys, passwords)."
        value={draft.secrets}
        onChange={set('secrets')}
        options={[
          { value: 'redact', label: 'Redact: placeholders in the text, the original kept encrypted' },
          { value: 'reject', label: 'Reject the write' },
          { value: 'allow', label: 'Allow them as written' },
        ]}
      />
      <div className="form-grid">
        <HostsField
          label="Hosts kb_fetch may reach"
          description="One per line (*.example.com for subdomains); empty: any public host."
          value={allow}
          onChange={setAllow}
        />
        <HostsField
          label="Hosts kb_fetch never reaches"
          description="One per line; wins over the list above."
          value={deny}
          onChange={setDeny}
        />
      </div>
      <RetentionFields
        retention={saved.retention}
        draft={retention}
        onChange={(next) => {
          setRetention(next);
          if (showProblems && Object.keys(retentionProblems(next)).length === 0) {
            setShowProblems(false);
            setError(undefined);
          }
        }}
        showProblems={showProblems}
      />
      <ErrorMessage error={error} />
      {notice && <Notice>{notice}</Notice>}
      <div className="form-actions">
        <PrimaryButton type="submit">Save settings</PrimaryButton>
        <PlainButton
          onPress={() => {
            adopt(saved);
            setError(undefined);
          }}
        >
          Undo changes
        </PlainButton>
      </div>
      <ModalDialog
        title="Shorten retention?"
        isOpen={pending !== undefined}
        onOpenChange={(open) => {
          if (!open) setPending(undefined);
        }}
      >
        {(close) => (
          <>
            <p>Whatever is older than the new periods is deleted by the retention purge, within moments:</p>
            <ul>
              {pending?.shortened.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
            <div className="form-actions">
              <DangerButton
                onPress={() => {
                  const changes = pending?.changes;
                  close();
                  if (changes) void send(changes);
                }}
              >
                Shorten and save
              </DangerButton>
              <PlainButton onPress={close} autoFocus>
                Cancel
              </PlainButton>
            </div>
          </>
        )}
      </ModalDialog>
    </Form>
  );
}

/** The tenant's data-key version and what is still sealed under older ones; rotate after confirmation. */
export function DataKeySection({ tenant }: { tenant: string }) {
  const status = useLoad(
    () => ok(api.GET('/v1/tenants/{slug}/data-key', { params: { path: { slug: tenant } } })),
    [tenant],
  );
  const [rotated, setRotated] = useState<string | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  return (
    <section aria-labelledby="data-key-heading" className="card">
      <h2 id="data-key-heading">Data key</h2>
      <p>Sensitive values (secrets found in memories, second-factor secrets) are sealed with the tenant's data key.</p>
      <ErrorMessage error={status.error} />
      {status.loading && !status.data && <Loading what="the data key" />}
      {status.data && (
        <dl className="details">
          <dt>Current version</dt>
          <dd>{status.data.currentVersion}</dd>
          <dt>Sealed values</dt>
          <dd>{status.data.envelopes}</dd>
          <dt>On older versions</dt>
          <dd>
            {status.data.remaining}
            {status.data.remaining > 0 && ' (re-sealed when read and by the maintenance sweep)'}
          </dd>
          <dt>By version</dt>
          <dd>{status.data.byVersion.map((v) => `v${v.version}: ${v.envelopes}`).join(', ') || '—'}</dd>
        </dl>
      )}
      {rotated && <Notice>{rotated}</Notice>}
      <ModalDialog title="Rotate the data key?" trigger={<DangerButton>Rotate data key</DangerButton>}>
        {(close) => (
          <>
            <p>
              New values are sealed with a new key version at once. Older values stay readable and are re-sealed over
              time; old versions are kept.
            </p>
            <ErrorMessage error={error} />
            <div className="form-actions">
              <DangerButton
                onPress={() => {
                  ok(api.POST('/v1/tenants/{slug}/data-key/rotate', { params: { path: { slug: tenant } } })).then(
                    (answer) => {
                      close();
                      setRotated(
                        `Rotated from version ${answer.previousVersion ?? '—'} to ${answer.currentVersion}; ` +
                          `${answer.remaining} values still on older versions.`,
                      );
                      status.reload();
                    },
                    setError,
                  );
                }}
              >
                Rotate now
              </DangerButton>
              <PlainButton onPress={close} autoFocus>
                Cancel
              </PlainButton>
            </div>
          </>
        )}
      </ModalDialog>
    </section>
  );
}
