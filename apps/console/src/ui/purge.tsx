import { useEffect, useRef } from 'react';
import { type components } from '../api/openapi';
import { PlainButton } from './forms';

export type Purge = components['schemas']['TenantPurgeDto_Output'];

const ACCESS_LABELS: Record<string, string> = { tokensRevoked: 'tokens revoked', usersDisabled: 'users disabled' };

/** What DELETE /v1/tenants/{slug} reports it purged: the schema's tables with their rows, and access revoked. */
export function PurgeReport({ purge, onDone }: { purge: Purge; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The dialog that deleted it has closed: bring focus to what happened.
  useEffect(() => heading.current?.focus(), [purge]);
  const withRows = purge.schema.tables.filter((table) => table.rows > 0);
  return (
    <section aria-labelledby="purge-heading" className="card" role="status">
      <h2 id="purge-heading" ref={heading} tabIndex={-1}>
        Tenant {purge.tenant.slug} deleted
      </h2>
      <p>
        Schema <code>{purge.schema.name}</code> dropped with {purge.schema.rows} rows in {purge.schema.tables.length}{' '}
        tables;{' '}
        {Object.entries(purge.access)
          .map(([key, count]) => `${count} ${ACCESS_LABELS[key] ?? key}`)
          .join(', ')}
        .
      </p>
      {withRows.length > 0 && (
        <table className="table compact">
          <caption className="visually-hidden">Rows purged per table</caption>
          <thead>
            <tr>
              <th scope="col">Table</th>
              <th scope="col" className="number">
                Rows purged
              </th>
            </tr>
          </thead>
          <tbody>
            {withRows.map((table) => (
              <tr key={table.table}>
                <td>
                  <code>{table.table}</code>
                </td>
                <td className="number">{table.rows}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <PlainButton onPress={onDone}>Dismiss</PlainButton>
    </section>
  );
}
