import { HallmarkApiError } from '@hallmark/sdk';
import type { Metadata } from 'next';
import { CollectKeyForm } from '../../../components/collected-key.tsx';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { dateTime } from '../../../components/format.ts';
import { paramsOf, type SearchParams } from '../../../components/search-params.ts';
import { collectKeyAction } from '../../../lib/actions.ts';
import { publicClient } from '../../../lib/api.ts';

export const metadata: Metadata = {
  title: 'Your key request',
  // The address holds the request's token: no other site may see it. The console itself may (it
  // has the token already), and must get the page's origin: under `no-referrer` a browser posting
  // the collect form without JavaScript sends `Origin: null`, which Next.js refuses as forged.
  referrer: 'same-origin',
};
export const dynamic = 'force-dynamic';

/** The requester's private status page: the API's status link, rendered for people. */
export default async function KeyRequestStatusPage(props: {
  readonly params: Promise<{ requestId: string }>;
  readonly searchParams: SearchParams;
}) {
  const { requestId } = await props.params;
  const { token, new: isNew } = await paramsOf(props.searchParams);
  let status: Awaited<ReturnType<Awaited<ReturnType<typeof publicClient>>['getKeyRequest']>>;
  try {
    status = await (await publicClient()).getKeyRequest(requestId, { token: token ?? '' });
  } catch (error) {
    if (!(error instanceof HallmarkApiError)) throw error;
    return (
      <main className="narrow">
        <h1>Key request</h1>
        <ErrorMessage>
          {error.status === 404
            ? 'No request is known by this link.'
            : (error.problem?.detail ?? error.message)}
        </ErrorMessage>
      </main>
    );
  }
  return (
    <main className="narrow">
      <h1>Key request of {status.companyName}</h1>
      {isNew !== undefined && (
        <p role="status" className="ok">
          Received. Keep this page's address: it is the only way to your answer and your key.
        </p>
      )}
      <dl className="facts">
        <dt>Status</dt>
        <dd data-testid="request-status">{status.status}</dd>
        <dt>Sent</dt>
        <dd>{dateTime(status.submittedAt)}</dd>
        <dt>Answer due</dt>
        <dd>{dateTime(status.dueAt)}</dd>
        {status.decidedAt !== undefined && (
          <>
            <dt>Decided</dt>
            <dd>{dateTime(status.decidedAt)}</dd>
          </>
        )}
        {status.reason !== undefined && (
          <>
            <dt>Reason</dt>
            <dd>{status.reason}</dd>
          </>
        )}
      </dl>
      {status.status === 'approved' && (
        // Rendered whether or not the key waits: after a collection without JavaScript, the page
        // is rendered afresh (collected by then) and the form's answer shows in its place.
        <section className="secret">
          <h2>Your API key</h2>
          <CollectKeyForm
            action={collectKeyAction}
            requestId={status.requestId}
            token={token ?? ''}
            ready={status.keyReady === true}
            prefix={status.apiKeyPrefix}
          />
        </section>
      )}
    </main>
  );
}
