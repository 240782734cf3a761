import type { Metadata } from 'next';
import { dateTime } from '../../../components/format.ts';
import { load } from '../../../components/load.ts';
import { Pager } from '../../../components/pager.tsx';
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
      {'problem' in page ? (
        <p role="alert" className="error">
          {page.problem}
        </p>
      ) : (
        <>
          <table>
            <thead>
              <tr>
                <th>When</th>
                <th>Who</th>
                <th>What</th>
                <th>On</th>
                <th>Details</th>
                <th>From</th>
              </tr>
            </thead>
            <tbody>
              {page.data.items.map((entry) => (
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
              ))}
            </tbody>
          </table>
          {page.data.items.length === 0 && <p>No changes yet.</p>}
          <Pager path="/audit" filters={{}} cursor={cursor} nextCursor={page.data.nextCursor} />
        </>
      )}
    </>
  );
}
