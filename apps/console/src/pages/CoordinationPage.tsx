import { useState } from 'react';
import { useParams } from 'wouter';
import { api, ok } from '../api/client';
import { ChainStatus, type Message, MessageItem, PostMessageForm } from '../ui/broadcasts';
import { useLoad } from '../ui/data';
import { CheckboxField } from '../ui/fields';
import { ErrorMessage, Notice, PlainButton } from '../ui/forms';
import { Loading } from '../ui/layout';
import { useShowMore } from '../ui/more';
import { useCan } from '../ui/permissions';
import { ProjectHeader } from '../ui/project-nav';
import { ShowMore } from '../ui/show-more';

const PAGE_SIZE = 50;

/**
 * A project's coordination channel (libs/coordination): the append-only, hash-chained messages
 * oldest first, whether the chain verifies, posting and acknowledging as the role allows.
 */
export function CoordinationPage() {
  const { project = '' } = useParams<{ project: string }>();
  const can = useCan();
  const mayPost = can('broadcast.post');
  const [unacknowledged, setUnacknowledged] = useState(false);
  const [posted, setPosted] = useState<string | undefined>(undefined);
  // Acknowledged here since the list loaded: shown at once, without reloading what was read.
  const [acked, setAcked] = useState<ReadonlySet<number>>(new Set());
  const path = { project };
  const verification = useLoad(
    () => ok(api.GET('/v1/projects/{project}/broadcasts/verify', { params: { path } })),
    [project],
  );
  const key = useLoad(() => ok(api.GET('/v1/projects/{project}/broadcasts/key', { params: { path } })), [project]);
  const messages = useShowMore<Message, number>(
    async (after) => {
      const page = await ok(
        api.GET('/v1/projects/{project}/broadcasts', {
          params: {
            path,
            query: { after, limit: PAGE_SIZE, unacknowledged: unacknowledged ? 'true' : undefined },
          },
        }),
      );
      return { items: page.items, next: page.nextAfter };
    },
    [project, unacknowledged],
  );
  const acknowledge = async (seq: number) => {
    await ok(api.POST('/v1/projects/{project}/broadcasts/acks', { params: { path }, body: { seqs: [seq] } }));
    setAcked((previous) => new Set([...previous, seq]));
  };
  return (
    <>
      <ProjectHeader project={project} title={`Coordination channel of ${project}`} />
      <section aria-labelledby="chain-heading" className="card" aria-busy={verification.loading}>
        <h2 id="chain-heading">Hash chain</h2>
        <ErrorMessage error={verification.error} />
        {verification.loading && !verification.data && <Loading what="the verification" />}
        {verification.data && (
          <div role="status">
            <ChainStatus verification={verification.data} />
          </div>
        )}
        <PlainButton onPress={verification.reload}>Verify again</PlainButton>
      </section>
      <section aria-labelledby="messages-heading" aria-busy={messages.loading}>
        <h2 id="messages-heading">Messages, oldest first</h2>
        <p className="field-description">
          Summaries and file lists are written by agents: unverified content, never instructions.
        </p>
        <CheckboxField
          id="only-unacknowledged"
          label="Only messages I have not acknowledged"
          checked={unacknowledged}
          onChange={setUnacknowledged}
        />
        <ol className="review-list">
          {messages.items.map((message) => (
            <MessageItem
              key={message.seq}
              message={message}
              acknowledged={message.acknowledged || acked.has(message.seq)}
              mayAck={mayPost}
              onAck={acknowledge}
            />
          ))}
        </ol>
        {!messages.loading && !messages.error && messages.items.length === 0 && <p>No messages.</p>}
        <ShowMore list={messages} what="messages" />
      </section>
      {mayPost && (
        <PostMessageForm
          project={project}
          mayDirect={can('broadcast.direct')}
          keySet={key.data?.keySet ?? false}
          onPosted={(seq, redacted) => {
            setPosted(`Message #${seq} posted${redacted ? `; ${redacted} secret(s) redacted from it` : ''}.`);
            messages.reload();
            verification.reload();
          }}
        />
      )}
      {posted && <Notice>{posted}</Notice>}
    </>
  );
}
