import type { PublicVerificationReport } from '@hallmark/sdk';
import { Fragment } from 'react';
import { dateTime } from '../format.ts';

const FACTS = [
  ['author', 'Author'],
  ['creationDate', 'Created'],
  ['description', 'Description'],
  ['copyright', 'Copyright'],
  ['licenseType', 'Licence'],
] as const;

/** The facts given at watermarking, the IPFS record, the NFT and the original manifest. */
export function PublishedFacts(props: { readonly report: PublicVerificationReport }) {
  const { metadata, record, nftInfo } = props.report;
  const facts = FACTS.filter(([key]) => metadata[key] !== undefined);
  const ipfs = record?.ipfs ?? null;
  return (
    <dl className="facts" data-testid="published">
      {facts.length === 0 && (
        <>
          <dt>Facts</dt>
          <dd>none published</dd>
        </>
      )}
      {facts.map(([key, label]) => (
        <Fragment key={key}>
          <dt>{label}</dt>
          <dd data-testid={`fact-${key}`}>{metadata[key]}</dd>
        </Fragment>
      ))}
      <dt>IPFS record</dt>
      <dd data-testid="ipfs">
        {ipfs === null ? (
          'none'
        ) : (
          <>
            <a href={ipfs.ipfsUrl} rel="noreferrer">
              <code>{ipfs.ipfsHash}</code>
            </a>{' '}
            stored {dateTime(ipfs.storedAt)}
          </>
        )}
      </dd>
      <dt>NFT</dt>
      <dd data-testid="nft">
        {nftInfo === null ? (
          'none'
        ) : (
          <>
            token <code>{nftInfo.tokenId}</code> on {nftInfo.blockchain}, contract{' '}
            <code>{nftInfo.contract}</code>, owned by <code>{nftInfo.owner}</code>{' '}
            <a href={nftInfo.marketplaceUrl} rel="noreferrer">
              view
            </a>
          </>
        )}
      </dd>
      <dt>Original manifest</dt>
      <dd data-testid="manifest-link">
        {record?.manifestUrl == null ? (
          'none kept'
        ) : (
          <a href={record.manifestUrl} rel="noreferrer">
            download the manifest store (application/c2pa)
          </a>
        )}
      </dd>
    </dl>
  );
}
