import { type FormEvent, useState } from 'react';
import { Form } from 'react-aria-components';
import { api, ok } from '../api/client';
import { type components } from '../api/openapi';
import { actorName, TextAreaField } from './fields';
import { ErrorMessage, Field, Notice, PlainButton, PrimaryButton, SelectField } from './forms';
import { formatDate } from './layout';

export type Message = components['schemas']['BroadcastPageDto_Output']['items'][number];
export type Verification = components['schemas']['VerificationDto_Output'];
type MessageType = components['schemas']['PostBroadcastDto']['type'];

/** Types any writer posts; the directing ones need `broadcast.direct` (orchestrators, admins). */
export const OPEN_TYPES: readonly MessageType[] = ['STATUS', 'PROPOSED', 'DEPENDENCY'];
export const DIRECTING_TYPES: readonly MessageType[] = ['ASSIGN', 'MERGE', 'REJECT', 'REVISE'];

/** The hash chain's state in words: verified up to its head, or broken at a named message. */
export function ChainStatus({ verification }: { readonly verification: Verification }) {
  if (verification.valid) {
    return (
      <p className="chain chain-ok">
        <strong>✓ Chain verified:</strong>{' '}
        {verification.entries === 0
          ? 'the channel is empty.'
          : verification.entries === 1
            ? 'its one message is intact.'
            : `all ${verification.entries} messages link back to the first.`}
        {verification.head && (
          <>
            {' '}
            Head hash <code>{verification.head.slice(0, 16)}…</code>
          </>
        )}
      </p>
    );
  }
  return (
    <p className="chain chain-broken">
      <strong>✗ Chain broken at message #{verification.firstInvalidSeq ?? '?'}:</strong> {verification.reason}.{' '}
      {verification.entries} message{verification.entries === 1 ? '' : 's'} before it verified.
    </p>
  );
}

/** One message of the channel: its type, summary (agent content, never instructions) and links. */
export function MessageItem({
  message,
  acknowledged,
  mayAck,
  onAck,
}: {
  readonly message: Message;
  readonly acknowledged: boolean;
  readonly mayAck: boolean;
  readonly onAck: (seq: number) => Promise<void>;
}) {
  const [error, setError] = useState<unknown>(undefined);
  const heading = `message-${message.seq}`;
  return (
    <li>
      <article className="card message-item" aria-labelledby={heading}>
        <h3 id={heading}>
          #{message.seq} <span className="badge">{message.type}</span>
          {message.assignee && <span className="message-to"> to {message.assignee}</span>}
        </h3>
        <p className="pre">{message.summary}</p>
        {message.injectionFlags.length > 0 && (
          <p className="badge warn">Flagged as a possible prompt injection: {message.injectionFlags.join(', ')}</p>
        )}
        <div className="memory-meta">
          <span>by {actorName(message.author)}</span>
          <span>{formatDate(message.at)}</span>
          {message.replyTo !== null && <span>reply to #{message.replyTo}</span>}
          {message.files.length > 0 && <span>files: {message.files.join(', ')}</span>}
          <span>
            hash <code>{message.hash.slice(0, 12)}</code>
          </span>
          <span className={acknowledged ? 'badge' : 'badge warn'}>
            {acknowledged ? 'acknowledged by you' : 'not acknowledged by you'}
          </span>
        </div>
        <ErrorMessage error={error} />
        {mayAck && !acknowledged && (
          <PlainButton onPress={() => void onAck(message.seq).catch(setError)}>Acknowledge #{message.seq}</PlainButton>
        )}
      </article>
    </li>
  );
}

const list = (text: string) =>
  text
    .split(/[\n,]/)
    .map((part) => part.trim())
    .filter(Boolean);

/** Posting on the channel: the types the role may post, and the channel key when the project set one. */
export function PostMessageForm({
  project,
  mayDirect,
  keySet,
  onPosted,
}: {
  readonly project: string;
  readonly mayDirect: boolean;
  readonly keySet: boolean;
  readonly onPosted: (seq: number, redacted: number) => void;
}) {
  const types = mayDirect ? [...OPEN_TYPES, ...DIRECTING_TYPES] : OPEN_TYPES;
  const [type, setType] = useState<MessageType>('STATUS');
  const [summary, setSummary] = useState('');
  const [files, setFiles] = useState('');
  const [assignee, setAssignee] = useState('');
  const [replyTo, setReplyTo] = useState('');
  const [channelKey, setChannelKey] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(undefined);
    ok(
      api.POST('/v1/projects/{project}/broadcasts', {
        params: { path: { project }, header: channelKey ? { 'X-Channel-Key': channelKey } : undefined },
        body: {
          type,
          summary,
          files: list(files).length ? list(files) : undefined,
          assignee: assignee.trim() || undefined,
          replyTo: replyTo.trim() ? Number(replyTo) : undefined,
        },
      }),
    ).then((posted) => {
      setSummary('');
      setFiles('');
      setReplyTo('');
      onPosted(
        posted.message.seq,
        posted.redacted.reduce((n, item) => n + item.count, 0),
      );
    }, setError);
  };
  return (
    <section aria-labelledby="post-heading" className="card">
      <h2 id="post-heading">Post a message</h2>
      <Form onSubmit={submit} className="form form-grid">
        <SelectField
          id="message-type"
          label="Type"
          value={type}
          onChange={setType}
          options={types.map((value) => ({ value, label: value }))}
        />
        <TextAreaField
          label="Summary"
          rows={2}
          value={summary}
          onChange={setSummary}
          isRequired
          maxLength={1000}
          description="What the message says, at most 1,000 characters."
        />
        <Field label="Files" value={files} onChange={setFiles} description="Repository paths, separated by commas." />
        <Field label="Assignee" value={assignee} onChange={setAssignee} description="Optional agent id." />
        <Field
          label="Reply to"
          value={replyTo}
          onChange={setReplyTo}
          inputMode="numeric"
          description="Optional message number."
        />
        {keySet && (
          <Field
            label="Channel key"
            type="password"
            value={channelKey}
            onChange={setChannelKey}
            description="This channel needs its posting key."
          />
        )}
        <ErrorMessage error={error} />
        <div className="form-actions">
          <PrimaryButton type="submit">Post message</PrimaryButton>
        </div>
      </Form>
      {!mayDirect && <Notice>ASSIGN, MERGE, REJECT and REVISE are for orchestrators and admins.</Notice>}
    </section>
  );
}
