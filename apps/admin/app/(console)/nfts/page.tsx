import type { Metadata } from 'next';
import Link from 'next/link';
import { dateTime, short } from '../../../components/format.ts';
import { load } from '../../../components/load.ts';
import { Pager } from '../../../components/pager.tsx';
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
      {'problem' in page ? (
        <p role="alert" className="error">
          {page.problem}
        </p>
      ) : (
        <>
          <table>
            <thead>
              <tr>
                <th>Token</th>
                <th>Network</th>
                <th>Contract</th>
                <th>Owner</th>
                <th>Transaction</th>
                <th>Minted</th>
                <th>Job</th>
                <th>Key</th>
                <th>Marketplace</th>
              </tr>
            </thead>
            <tbody>
              {page.data.items.map((nft) => (
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
                    {nft.txHash === null ? (
                      '—'
                    ) : (
                      <code title={nft.txHash}>{short(nft.txHash, 6)}</code>
                    )}
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
              ))}
            </tbody>
          </table>
          {page.data.items.length === 0 && <p>No tokens minted yet.</p>}
          <Pager path="/nfts" filters={{}} cursor={cursor} nextCursor={page.data.nextCursor} />
        </>
      )}
    </>
  );
}
