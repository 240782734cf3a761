import { HallmarkApiError } from '@hallmark/sdk';
import type { Metadata } from 'next';
import { ActionForm } from '../../../components/action-form.tsx';
import { dateTime } from '../../../components/format.ts';
import { paramsOf, type SearchParams } from '../../../components/search-params.ts';
import { collectKeyAction } from '../../../lib/actions.ts';
import { publicClient } from '../../../lib/api.ts';

export const metadata: Metadata = { title: 'Your key request', referrer: 'no-referrer' };
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
        <p role="alert" className="error">
          {error.status === 404
            ? 'No request is known by this link.'
            : (error.problem?.detail ?? error.message)}
        </p>
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
      {status.keyReady === true && (
        <section className="secret">
          <h2>Your API key</h2>
          <p>
            Approved. Your key is made when you ask for it and shown that once: copy it then and
            keep it secret.
          </p>
          <ActionForm action={collectKeyAction} submit="Show my key" label="Collect the key">
            <input type="hidden" name="requestId" value={status.requestId} />
            <input type="hidden" name="token" value={token ?? ''} />
          </ActionForm>
        </section>
      )}
      {status.apiKeyPrefix !== undefined && (
        <p>
          Your key <code>{status.apiKeyPrefix}…</code> was shown when it was collected; only its
          prefix is kept. Lost it? Ask the operators for a new one.
        </p>
      )}
    </main>
  );
}
