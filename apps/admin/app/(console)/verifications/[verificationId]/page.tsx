import { HallmarkApiError } from '@hallmark/sdk';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { dateTime } from '../../../../components/format.ts';
import { ReportView } from '../../../../components/report/report-view.tsx';
import { signedIn } from '../../../../lib/session.ts';

export const metadata: Metadata = { title: 'Verification' };

const ORIGINS = {
  api: 'a client, with its API key',
  public: 'anyone, on the public page',
  console: 'an operator, in the console',
} as const;

export default async function VerificationPage(props: {
  readonly params: Promise<{ verificationId: string }>;
}) {
  const { client } = await signedIn();
  const { verificationId } = await props.params;
  let verification: Awaited<ReturnType<typeof client.getAdminVerification>>;
  try {
    verification = await client.getAdminVerification(verificationId);
  } catch (error) {
    // A malformed id is as unknown as a missing one.
    if (error instanceof HallmarkApiError && (error.status === 404 || error.status === 400))
      notFound();
    throw error;
  }
  const v = verification;
  return (
    <>
      <p>
        <Link href="/verifications">← Verifications</Link>
      </p>
      <h1>
        Verification <code>{v.verificationId}</code>{' '}
        <span className={`badge ${v.status}`}>{v.status}</span>
      </h1>
      <dl className="facts" data-testid="ids">
        <dt>Asked by</dt>
        <dd>
          {ORIGINS[v.origin]}
          {v.keyPrefix !== null && (
            <>
              {' '}
              <Link href={`/verifications?key=${v.keyPrefix}`}>
                <code>{v.keyPrefix}</code>
              </Link>
            </>
          )}
          {v.operatorEmail !== null && ` (${v.operatorEmail})`}
        </dd>
        <dt>File</dt>
        <dd>{v.fileId === null ? 'sent in the request, not kept' : <code>{v.fileId}</code>}</dd>
        <dt>Issued by job</dt>
        <dd data-testid="issued-job">
          {v.issuedRequestId === null ? (
            'none of this deployment'
          ) : (
            <Link href={`/jobs/${v.issuedRequestId}`}>
              <code>{v.issuedRequestId}</code>
            </Link>
          )}
        </dd>
        <dt>Manifest</dt>
        <dd>{v.manifestId === null ? '—' : <code>{v.manifestId}</code>}</dd>
        <dt>Created</dt>
        <dd>{dateTime(v.createdAt)}</dd>
        <dt>Finished</dt>
        <dd>{dateTime(v.finishedAt)}</dd>
        {v.error !== null && (
          <>
            <dt>Error</dt>
            <dd className="error">
              <code>{v.error.code}</code> {v.error.message}
            </dd>
          </>
        )}
      </dl>
      {v.report !== null && (
        <>
          <p>
            <a
              className="button"
              data-testid="download-report"
              download
              href={`/verifications/${v.verificationId}/report`}
            >
              Download the signed report
            </a>{' '}
            <span className="muted">
              It names no key, job or file: you may give it to whoever asked.
            </span>
          </p>
          <ReportView report={v.report} />
        </>
      )}
    </>
  );
}
