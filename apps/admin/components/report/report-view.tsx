import type { PublicVerificationReport } from '@hallmark/sdk';
import type { ReactNode } from 'react';
import { dateTime } from '../format.ts';
import { ContentFacts } from './content-facts.tsx';
import { HistoryTree } from './history-tree.tsx';
import { MarkFacts } from './mark-facts.tsx';
import { PublishedFacts } from './published-facts.tsx';
import { VerdictBadge } from './verdict-badge.tsx';

/**
 * A verification report in plain words, the same on the public verify page and in the console:
 * the verdict, who signed and when, the history, the mark, the content comparison, and what the
 * deployment published. `picture` is the checked file, when the page still has it (the service
 * never keeps it), to outline the edited regions on.
 */
export function ReportView(props: {
  readonly report: PublicVerificationReport;
  readonly picture?: string | undefined;
  readonly children?: ReactNode;
}) {
  const { report } = props;
  return (
    <article className="report" data-testid="report">
      <VerdictBadge report={report} />
      {props.children}
      <section aria-label="Signed by">
        <h2>Who signed it, and when</h2>
        <SignerFacts report={report} />
      </section>
      <section aria-label="History">
        <h2>Edit history</h2>
        <HistoryTree report={report} />
      </section>
      <section aria-label="Invisible mark">
        <h2>Invisible mark</h2>
        <MarkFacts report={report} />
      </section>
      <section aria-label="Content">
        <h2>Compared with the issued picture</h2>
        <ContentFacts report={report} picture={props.picture} />
      </section>
      <section aria-label="Published">
        <h2>Published with it</h2>
        <PublishedFacts report={report} />
      </section>
    </article>
  );
}

const STATE_WORDS = {
  trusted: 'valid, and signed by a certificate this service trusts',
  valid_untrusted: 'valid, but signed by a certificate this service does not trust',
  invalid: 'broken: the file changed after signing, or the signature is forged',
} as const;

function SignerFacts(props: { readonly report: PublicVerificationReport }) {
  const { c2pa, record } = props.report;
  if (!c2pa.present || c2pa.state === null) {
    return (
      <p data-testid="signer">
        No Content Credentials in this file.
        {record !== null && ` This service issued the picture on ${dateTime(record.issuedAt)}.`}
      </p>
    );
  }
  const { signer } = c2pa;
  return (
    <dl className="facts" data-testid="signer">
      <dt>Credentials</dt>
      <dd>{STATE_WORDS[c2pa.state]}</dd>
      <dt>Signed by</dt>
      <dd>
        {signer?.subject ?? 'unnamed signer'}
        {signer?.issuer ? `, certified by ${signer.issuer}` : ''}
      </dd>
      {signer?.isDevelopmentIdentity === true && (
        <>
          <dt>Note</dt>
          <dd>signed with the deployment's development identity: trust it nowhere else</dd>
        </>
      )}
      <dt>Signed at</dt>
      <dd>
        {signer?.signingTime
          ? `${signer.signingTime} (time-stamp${signer.timeStamp === 'trusted' ? ', trusted' : ', authority not trusted'})`
          : 'no time-stamp: the time of signing is not proven'}
      </dd>
      {record !== null && (
        <>
          <dt>Issued here</dt>
          <dd>{dateTime(record.issuedAt)}</dd>
        </>
      )}
    </dl>
  );
}
