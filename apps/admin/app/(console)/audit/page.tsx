import type { Metadata } from 'next';
import { dateTime } from '../../../components/format.ts';
import { Listing } from '../../../components/listing.tsx';
import { load } from '../../../components/load.ts';
import { paramsOf, type SearchParams } from '../../../components/search-params.ts';
import { signedIn } from '../../../lib/session.ts';

export const metadata: Metadata = { title: 'Audit log' };

export default async function AuditPage(props: { readonly searchParams: SearchParams }) {
  const { client } = await signedIn();
  const { cursor } = await paramsOf(props.searchParams);
  const page = await load(() => client.listAudit({ cursor, limit: 50 }));
  return (
    <>
      <h1>Audit log</h1>
      <p className="note">
        Every change an operator made, newest first. Entries cannot be edited or deleted.
      </p>
      <Listing
        page={page}
        headers={['When', 'Who', 'What', 'On', 'Details', 'From']}
        row={(entry) => (
          <tr key={entry.id} data-testid="audit-entry">
            <td>{dateTime(entry.at)}</td>
            <td>{entry.operator}</td>
            <td>
              <code>{entry.action}</code>
            </td>
            <td>
              <code>{entry.target}</code>
            </td>
            <td>
              {Object.entries(entry.details)
                .map(
                  ([name, value]) =>
                    `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`,
                )
                .join('; ')}
            </td>
            <td>{entry.address}</td>
          </tr>
        )}
        empty="No changes yet."
        path="/audit"
        cursor={cursor}
      />
    </>
  );
}
