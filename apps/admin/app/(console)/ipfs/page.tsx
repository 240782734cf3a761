import type { Metadata } from 'next';
import Link from 'next/link';
import { dateTime, short } from '../../../components/format.ts';
import { Listing } from '../../../components/listing.tsx';
import { load } from '../../../components/load.ts';
import { paramsOf, type SearchParams } from '../../../components/search-params.ts';
import { signedIn } from '../../../lib/session.ts';

export const metadata: Metadata = { title: 'IPFS records' };

export default async function IpfsPage(props: { readonly searchParams: SearchParams }) {
  const { client } = await signedIn();
  const { cursor } = await paramsOf(props.searchParams);
  const page = await load(() => client.listAllIpfsRecords({ cursor, limit: 25 }));
  return (
    <>
      <h1>IPFS records</h1>
      <Listing
        page={page}
        headers={['CID', 'Stored', 'Job', 'Key', 'Metadata']}
        row={(record) => (
          <tr key={record.cid}>
            <td>
              <a href={record.gatewayUrl} title={record.cid}>
                <code>{short(record.cid, 8)}</code>
              </a>
            </td>
            <td>{dateTime(record.storedAt)}</td>
            <td>
              <Link href={`/jobs/${record.requestId}`}>
                <code>{record.requestId.slice(0, 8)}</code>
              </Link>
            </td>
            <td>
              <code>{record.keyPrefix}</code>
            </td>
            <td>
              <details>
                <summary>{Object.keys(record.metadata).join(', ')}</summary>
                <pre>{JSON.stringify(record.metadata, null, 2)}</pre>
              </details>
            </td>
          </tr>
        )}
        empty="Nothing stored on IPFS yet."
        path="/ipfs"
        cursor={cursor}
      />
    </>
  );
}
