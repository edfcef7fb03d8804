import { useState } from 'react';
import { useParams } from 'wouter';
import { api, ok } from '../api/client';
import { actorName } from '../ui/fields';
import { Notice } from '../ui/forms';
import { KbSearch } from '../ui/kb-search';
import { AddDocumentForm, ChunksDialog, DeleteDocument, documentName, type KbDocument } from '../ui/knowledge';
import { formatDate } from '../ui/layout';
import { useShowMore } from '../ui/more';
import { useCan } from '../ui/permissions';
import { ProjectHeader } from '../ui/project-nav';
import { ShowMore } from '../ui/show-more';

const PAGE_SIZE = 25;

/** A project's knowledge base (libs/knowledge): its documents, their chunks, adding and deleting, search. */
export function KnowledgePage() {
  const { project = '' } = useParams<{ project: string }>();
  const can = useCan();
  const mayWrite = can('kb.write');
  const [message, setMessage] = useState<string | undefined>(undefined);
  const documents = useShowMore<KbDocument, string>(
    async (cursor) => {
      const page = await ok(
        api.GET('/v1/projects/{project}/kb/documents', {
          params: { path: { project }, query: { limit: PAGE_SIZE, cursor } },
        }),
      );
      return { items: page.items, next: page.nextCursor };
    },
    [project],
  );
  return (
    <>
      <ProjectHeader project={project} title={`Knowledge base of ${project}`} />
      {mayWrite && (
        <AddDocumentForm
          project={project}
          onIndexed={(result) => {
            const name = documentName(result.document);
            setMessage(
              result.duplicate
                ? `${name} was already indexed with this content: nothing new stored.`
                : `${name} indexed in ${result.chunks} chunk${result.chunks === 1 ? '' : 's'}${result.replaced ? `, replacing ${result.replaced} older version(s)` : ''}; searchable by keyword now, embedding ${result.embedding === 'queued' ? 'queued' : 'not queued'}.`,
            );
            documents.reload();
          }}
        />
      )}
      {message && <Notice>{message}</Notice>}
      <section aria-labelledby="documents-heading" aria-busy={documents.loading}>
        <h2 id="documents-heading">Documents, newest first</h2>
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Document</th>
              <th scope="col">Type</th>
              <th scope="col">Chunks</th>
              <th scope="col">Added by</th>
              <th scope="col">Added / expires</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {!documents.loading && documents.items.length === 0 && (
              <tr>
                <td colSpan={6}>No documents yet.</td>
              </tr>
            )}
            {documents.items.map((document) => (
              <tr key={document.id}>
                <td>
                  {documentName(document)}
                  {document.title && <div className="field-description">{document.source}</div>}
                </td>
                <td>
                  {document.sourceType}
                  {document.untrusted && <span className="badge warn">untrusted</span>}
                  <div className="field-description">kept as {document.retentionTier}</div>
                </td>
                <td>{document.chunkCount}</td>
                <td>{actorName(document.author)}</td>
                <td>
                  {formatDate(document.createdAt)}
                  <div className="field-description">until {formatDate(document.expiresAt)}</div>
                </td>
                <td>
                  <div className="actions">
                    <ChunksDialog project={project} document={document} />
                    {mayWrite && (
                      <DeleteDocument
                        project={project}
                        document={document}
                        onDeleted={() => {
                          setMessage(`${documentName(document)} deleted.`);
                          documents.reload();
                        }}
                      />
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <ShowMore list={documents} what="documents" />
      </section>
      <KbSearch project={project} />
    </>
  );
}
