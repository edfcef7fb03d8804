import { type FormEvent, useState } from 'react';
import { Form } from 'react-aria-components';
import { Link } from 'wouter';
import { api, ok } from '../api/client';
import { TextAreaField } from './fields';
import { ErrorMessage, Notice, PrimaryButton, SelectField } from './forms';
import { type Memory } from './memory';
import { useCan } from './permissions';

type Wider = 'project' | 'team';
const WIDER: Record<Memory['scope'], readonly Wider[]> = { private: ['project', 'team'], project: ['team'], team: [] };
const LABELS: Record<Wider, string> = {
  project: 'project (everyone in this project)',
  team: 'team (every project of the tenant)',
};

/**
 * Proposing a memory for a wider scope (private < project < team): a reviewer decides it in the
 * review queue. Offered to roles with `memory.promote`, for memories not already team-wide.
 */
export function PromoteForm({ project, memory }: { readonly project: string; readonly memory: Memory }) {
  const can = useCan();
  const options = WIDER[memory.scope];
  const [toScope, setToScope] = useState<Wider>(options[0] ?? 'team');
  const [note, setNote] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [proposed, setProposed] = useState(false);
  if (!can('memory.promote') || options.length === 0) return null;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(undefined);
    ok(
      api.POST('/v1/projects/{project}/memories/{id}/promotions', {
        params: { path: { project, id: memory.id } },
        body: { toScope, note: note.trim() || undefined },
      }),
    ).then(() => setProposed(true), setError);
  };
  return (
    <section aria-labelledby="promote-heading" className="card">
      <h2 id="promote-heading">Propose a wider scope</h2>
      {proposed ? (
        <Notice>
          Promotion to {toScope} proposed: an orchestrator or an admin decides it
          {can('memory.review') ? (
            <>
              {' '}
              in the <Link href={`/projects/${project}/reviews`}>review queue</Link>.
            </>
          ) : (
            '.'
          )}
        </Notice>
      ) : (
        <Form onSubmit={submit} className="form form-grid">
          <SelectField
            id="promote-scope"
            label="Widen to"
            value={toScope}
            onChange={setToScope}
            options={options.map((value) => ({ value, label: LABELS[value] }))}
          />
          <TextAreaField
            label="Note for the reviewer"
            rows={2}
            value={note}
            onChange={setNote}
            description="Optional: why others should see it."
          />
          <ErrorMessage error={error} />
          <div className="form-actions">
            <PrimaryButton type="submit">Propose promotion</PrimaryButton>
          </div>
        </Form>
      )}
    </section>
  );
}
