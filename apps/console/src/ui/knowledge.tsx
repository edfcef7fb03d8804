import { type FormEvent, useState } from 'react';
import { Dialog, DialogTrigger, Form, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { api, ok } from '../api/client';
import { type components } from '../api/openapi';
import { TextAreaField } from './fields';
import { DangerButton, ErrorMessage, Field, PlainButton, PrimaryButton, SelectField } from './forms';
import { ConfirmDialog } from './confirm-dialog';
import { useShowMore } from './more';
import { ShowMore } from './show-more';

export type KbDocument = components['schemas']['DocumentPageDto_Output']['items'][number];
export type IndexResult = components['schemas']['IndexResultDto_Output'];
type Chunk = components['schemas']['DocumentChunkPageDto_Output']['items'][number];
type SourceType = NonNullable<components['schemas']['IndexDocumentDto']['sourceType']>;
type Tier = NonNullable<components['schemas']['IndexDocumentDto']['retentionTier']>;

export const documentName = (document: { title: string | null; source: string }) => document.title ?? document.source;

/** Indexing text into the knowledge base (it is searchable by keyword at once; embedding is queued). */
export function AddDocumentForm({ project, onIndexed }: { project: string; onIndexed: (result: IndexResult) => void }) {
  const [source, setSource] = useState('');
  const [title, setTitle] = useState('');
  const [text, setText] = useState('');
  const [sourceType, setSourceType] = useState<SourceType>('internal');
  const [tier, setTier] = useState<Tier | 'default'>('default');
  const [error, setError] = useState<unknown>(undefined);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(undefined);
    ok(
      api.POST('/v1/projects/{project}/kb/documents', {
        params: { path: { project } },
        body: {
          source: source.trim(),
          title: title.trim() || undefined,
          text,
          sourceType,
          retentionTier: tier === 'default' ? undefined : tier,
        },
      }),
    ).then((result) => {
      setSource('');
      setTitle('');
      setText('');
      onIndexed(result);
    }, setError);
  };
  return (
    <section aria-labelledby="add-document-heading" className="card">
      <h2 id="add-document-heading">Add a document</h2>
      <Form onSubmit={submit} className="form form-grid">
        <Field
          label="Source"
          value={source}
          onChange={setSource}
          isRequired
          description="A URL or file path; new text of a known source replaces it."
        />
        <Field label="Title" value={title} onChange={setTitle} />
        <SelectField
          id="document-source-type"
          label="Source type"
          value={sourceType}
          onChange={setSourceType}
          options={[
            { value: 'internal', label: 'internal (written by the team)' },
            { value: 'external', label: 'external (fetched: labelled untrusted)' },
          ]}
        />
        <SelectField
          id="document-tier"
          label="Retention"
          value={tier}
          onChange={setTier}
          options={[
            { value: 'default', label: 'by source type' },
            { value: 'internal', label: 'internal (30 days by default)' },
            { value: 'external', label: 'external (14 days by default)' },
            { value: 'summary', label: 'summary (365 days by default)' },
          ]}
        />
        <div className="wide">
          <TextAreaField label="Text" value={text} onChange={setText} isRequired rows={6} />
        </div>
        <ErrorMessage error={error} />
        <div className="form-actions">
          <PrimaryButton type="submit">Add document</PrimaryButton>
        </div>
      </Form>
    </section>
  );
}

/** A document's chunks in reading order (GET …/kb/documents/{id}/chunks), in a dialog, page by page. */
export function ChunksDialog({ project, document }: { project: string; document: KbDocument }) {
  const name = documentName(document);
  return (
    <DialogTrigger>
      <PlainButton>Chunks of {name}</PlainButton>
      <ModalOverlay className="modal-overlay" isDismissable>
        <Modal className="modal modal-wide">
          <Dialog className="dialog">
            {({ close }) => (
              <>
                <Heading slot="title">Chunks of {name}</Heading>
                <ChunkList project={project} document={document} />
                <div className="form-actions">
                  <PlainButton onPress={close}>Close</PlainButton>
                </div>
              </>
            )}
          </Dialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}

function ChunkList({ project, document }: { project: string; document: KbDocument }) {
  const chunks = useShowMore<Chunk, number>(
    async (after) => {
      const page = await ok(
        api.GET('/v1/projects/{project}/kb/documents/{id}/chunks', {
          params: { path: { project, id: document.id }, query: { after, limit: 20 } },
        }),
      );
      return { items: page.items, next: page.nextAfter };
    },
    [project, document.id],
  );
  return (
    <div className="chunk-scroll">
      {document.untrusted && <p className="badge warn">External content: data, never instructions.</p>}
      <ol className="chunk-list">
        {chunks.items.map((chunk) => (
          <li key={chunk.id}>
            <p className="excerpt-label">Chunk {chunk.ordinal + 1}</p>
            <p className="pre">{chunk.text}</p>
          </li>
        ))}
      </ol>
      <ShowMore list={chunks} what="chunks" />
    </div>
  );
}

/** Deleting a document and its chunks, after confirmation (its author or a maintainer; the API decides). */
export function DeleteDocument({
  project,
  document,
  onDeleted,
}: {
  project: string;
  document: KbDocument;
  onDeleted: () => void;
}) {
  const name = documentName(document);
  return (
    <ConfirmDialog
      title={`Delete ${name}?`}
      trigger={<DangerButton>Delete {name}</DangerButton>}
      confirmLabel="Delete document"
      onConfirm={() =>
        ok(api.DELETE('/v1/projects/{project}/kb/documents/{id}', { params: { path: { project, id: document.id } } }))
      }
      onDone={onDeleted}
    >
      <p>
        The document and its {document.chunkCount} chunks leave the knowledge base at once; search no longer finds them.
        This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
