import type { Metadata } from 'next';
import { ActionForm, Field } from '../../../components/action-form.tsx';
import { ErrorMessage } from '../../../components/error-message.tsx';
import { dateTime } from '../../../components/format.ts';
import { load } from '../../../components/load.ts';
import { Pager } from '../../../components/pager.tsx';
import { paramsOf, type SearchParams } from '../../../components/search-params.ts';
import { approveAction, rejectAction } from '../../../lib/actions.ts';
import { signedIn } from '../../../lib/session.ts';

export const metadata: Metadata = { title: 'Key requests' };

export default async function KeyRequestsPage(props: { readonly searchParams: SearchParams }) {
  const { client, session } = await signedIn();
  const { status, cursor } = await paramsOf(props.searchParams);
  const page = await load(() =>
    client.listKeyRequests({ status: status as 'pending' | undefined, cursor, limit: 20 }),
  );
  const admin = session.role === 'admin';
  return (
    <>
      <h1>Key requests</h1>
      <form className="filters" method="get">
        <label>
          Status{' '}
          <select name="status" defaultValue={status ?? ''}>
            <option value="">any</option>
            <option value="pending">pending</option>
            <option value="approved">approved</option>
            <option value="rejected">rejected</option>
          </select>
        </label>
        <button type="submit">Filter</button>
      </form>
      {'problem' in page ? (
        <ErrorMessage>{page.problem}</ErrorMessage>
      ) : (
        <>
          {page.data.items.length === 0 && <p>No requests.</p>}
          {page.data.items.map((request) => (
            <article key={request.requestId} className="request" data-testid="key-request">
              <header>
                <h2>{request.companyName}</h2>
                <span className={`badge ${request.status}`}>{request.status}</span>
                {request.overdue && <span className="badge overdue">overdue</span>}
              </header>
              <p className="purpose">{request.purpose}</p>
              <dl className="facts">
                <dt>Contact</dt>
                <dd>
                  {request.contactName} &lt;{request.contactEmail}&gt;
                </dd>
                {request.website !== null && (
                  <>
                    <dt>Website</dt>
                    <dd>{request.website}</dd>
                  </>
                )}
                {request.expectedVolume !== null && (
                  <>
                    <dt>Volume</dt>
                    <dd>{request.expectedVolume}</dd>
                  </>
                )}
                <dt>Sent</dt>
                <dd>{dateTime(request.submittedAt)}</dd>
                <dt>Due</dt>
                <dd>{dateTime(request.dueAt)}</dd>
                {request.decidedAt !== null && (
                  <>
                    <dt>Decided</dt>
                    <dd>
                      {dateTime(request.decidedAt)} by {request.decidedBy}
                      {request.reason !== null && `: ${request.reason}`}
                    </dd>
                  </>
                )}
                {request.status === 'approved' && (
                  <>
                    <dt>Key collected</dt>
                    <dd data-testid="key-collected">{request.keyCollected ? 'yes' : 'not yet'}</dd>
                  </>
                )}
              </dl>
              {request.status === 'pending' && admin && (
                <div className="actions">
                  <ActionForm
                    action={approveAction}
                    csrf={session.csrfToken}
                    submit="Approve"
                    label="Approve"
                  >
                    <input type="hidden" name="requestId" value={request.requestId} />
                  </ActionForm>
                  <ActionForm
                    action={rejectAction}
                    csrf={session.csrfToken}
                    submit="Reject"
                    label="Reject"
                    danger
                  >
                    <input type="hidden" name="requestId" value={request.requestId} />
                    <Field name="reason" label="Reason" />
                  </ActionForm>
                </div>
              )}
            </article>
          ))}
          <Pager
            path="/key-requests"
            filters={{ status }}
            cursor={cursor}
            nextCursor={page.data.nextCursor}
          />
        </>
      )}
      {!admin && <p className="note">Viewers can look; changes need an admin.</p>}
    </>
  );
}
