import type { Metadata } from 'next';
import Link from 'next/link';
import { dateTime, short } from '../../../components/format.ts';
import { Listing } from '../../../components/listing.tsx';
import { load } from '../../../components/load.ts';
import { paramsOf, type SearchParams } from '../../../components/search-params.ts';
import { signedIn } from '../../../lib/session.ts';

export const metadata: Metadata = { title: 'NFTs' };

export default async function NftsPage(props: { readonly searchParams: SearchParams }) {
  const { client } = await signedIn();
  const { cursor } = await paramsOf(props.searchParams);
  const page = await load(() => client.listAllNfts({ cursor, limit: 25 }));
  return (
    <>
      <h1>NFTs</h1>
      <p className="note">
        Owners are as last read from the chain; a stale one is re-read behind the page.
      </p>
      <Listing
        page={page}
        headers={[
          'Token',
          'Network',
          'Contract',
          'Owner',
          'Transaction',
          'Minted',
          'Job',
          'Key',
          'Marketplace',
        ]}
        row={(nft) => (
          <tr key={`${nft.contract}-${nft.tokenId}`}>
            <td>{nft.tokenId}</td>
            <td>{nft.network}</td>
            <td>
              <code title={nft.contract}>{short(nft.contract, 6)}</code>
            </td>
            <td>
              <code title={`${nft.owner}, read ${dateTime(nft.ownerAsOf)}`}>
                {short(nft.owner, 6)}
              </code>
            </td>
            <td>
              {nft.txHash === null ? '—' : <code title={nft.txHash}>{short(nft.txHash, 6)}</code>}
            </td>
            <td>{dateTime(nft.mintedAt)}</td>
            <td>
              <Link href={`/jobs/${nft.requestId}`}>
                <code>{nft.requestId.slice(0, 8)}</code>
              </Link>
            </td>
            <td>
              <code>{nft.keyPrefix}</code>
            </td>
            <td>{nft.marketplaceUrl !== null && <a href={nft.marketplaceUrl}>open</a>}</td>
          </tr>
        )}
        empty="No tokens minted yet."
        path="/nfts"
        cursor={cursor}
      />
    </>
  );
}
