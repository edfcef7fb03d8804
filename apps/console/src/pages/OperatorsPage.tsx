import { useState } from 'react';
import { api, ok } from '../api/client';
import { type components } from '../api/openapi';
import { useSession } from '../session';
import { useCursorPages, useLoad } from '../ui/data';
import { ErrorMessage, Notice } from '../ui/forms';
import { formatDate, Loading, PageHeader, Pager } from '../ui/layout';
import { type Operator, OperatorActions } from '../ui/operators';
import { PasswordLinkReveal } from '../ui/users';

const PAGE_SIZE = 50;

/** Platform: the operators' accounts, page by page; disable or enable one, issue one a password link. */
export function OperatorsPage() {
  const { session } = useSession();
  const pages = useCursorPages();
  const list = useLoad(
    () => ok(api.GET('/v1/platform/accounts', { params: { query: { limit: PAGE_SIZE, cursor: pages.cursor } } })),
    [pages.cursor],
  );
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [link, setLink] = useState<{ operator: Operator; link: components['schemas']['PasswordLinkDto_Output'] }>();
  const changed = (message: string) => {
    setNotice(message);
    list.reload();
  };
  return (
    <>
      <PageHeader title="Operators" />
      <p>
        People who administer this installation. Disabling one ends their browser sessions at once; a password link lets
        one set a new password (it is shown once, works once and expires after 24 hours).
      </p>
      {link && <PasswordLinkReveal person={link.operator} link={link.link} onDone={() => setLink(undefined)} />}
      {notice && <Notice>{notice}</Notice>}
      <ErrorMessage error={list.error} />
      {list.loading && !list.data && <Loading what="operators" />}
      {list.data && (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Second factor</th>
              <th scope="col">State</th>
              <th scope="col">Created</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data.items.map((operator) => {
              const isSelf = operator.id === session?.account?.id;
              return (
                <tr key={operator.id}>
                  <td>
                    {operator.name}
                    {isSelf && ' (you)'}
                  </td>
                  <td id={`operator-email-${operator.id}`}>{operator.email}</td>
                  <td>{operator.secondFactor ? 'on' : 'off'}</td>
                  <td>{operator.disabled ? 'disabled' : 'active'}</td>
                  <td>{formatDate(operator.createdAt)}</td>
                  <td>
                    <OperatorActions
                      operator={operator}
                      isSelf={isSelf}
                      describedBy={`operator-email-${operator.id}`}
                      onChanged={changed}
                      onLink={(issued) => setLink({ operator, link: issued })}
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <Pager
        label="Operators"
        page={pages.page}
        hasPrevious={pages.hasPrevious}
        hasNext={Boolean(list.data?.nextCursor)}
        onPrevious={pages.previous}
        onNext={() => pages.next(list.data?.nextCursor)}
      />
    </>
  );
}
