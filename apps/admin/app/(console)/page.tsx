import type { Metadata } from 'next';
import Link from 'next/link';
import { signedIn } from '../../lib/session.ts';

export const metadata: Metadata = { title: 'Overview' };

export default async function OverviewPage() {
  const { client } = await signedIn();
  const overview = await client.getOverview();
  return (
    <>
      <h1>Overview</h1>
      <div className="cards">
        <section>
          <h2>Dependencies</h2>
          <p className={overview.ready ? 'ok' : 'error'} data-testid="readiness">
            {overview.ready ? 'Ready' : 'Not ready'}
          </p>
          <ul className="checks">
            {Object.entries(overview.checks).map(([name, state]) => (
              <li key={name} className={state}>
                {name}: {state}
              </li>
            ))}
          </ul>
        </section>
        <section>
          <h2>Queue</h2>
          {overview.queue === null ? (
            <p className="error">Redis cannot be reached.</p>
          ) : (
            <dl className="facts">
              <dt>Waiting</dt>
              <dd>{overview.queue.waiting}</dd>
              <dt>Active</dt>
              <dd>{overview.queue.active}</dd>
              <dt>Delayed</dt>
              <dd>{overview.queue.delayed}</dd>
            </dl>
          )}
        </section>
        <section>
          <h2>Jobs, last 24 h</h2>
          <dl className="facts">
            {Object.entries(overview.jobsLast24h).map(([status, count]) => (
              <div key={status}>
                <dt>
                  <Link href={`/jobs?status=${status}`}>{status}</Link>
                </dt>
                <dd>{count}</dd>
              </div>
            ))}
          </dl>
        </section>
        <section>
          <h2>Failures, last 24 h</h2>
          {overview.failuresLast24h.length === 0 ? (
            <p>None.</p>
          ) : (
            <table>
              <tbody>
                {overview.failuresLast24h.map((failure) => (
                  <tr key={failure.code}>
                    <td>
                      <code>{failure.code}</code>
                    </td>
                    <td>{failure.count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
        <section>
          <h2>Key requests</h2>
          <dl className="facts">
            <dt>
              <Link href="/key-requests?status=pending">Pending</Link>
            </dt>
            <dd data-testid="pending-key-requests">{overview.pendingKeyRequests}</dd>
            <dt>Overdue</dt>
            <dd
              data-testid="overdue-key-requests"
              className={overview.overdueKeyRequests > 0 ? 'error' : undefined}
            >
              {overview.overdueKeyRequests}
            </dd>
          </dl>
        </section>
      </div>
    </>
  );
}
