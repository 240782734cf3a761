import type { Metadata } from 'next';
import Link from 'next/link';
import { ActivityCharts } from '../../components/charts/activity-charts.tsx';
import { HealthCards } from '../../components/charts/health-cards.tsx';
import { paramsOf, type SearchParams } from '../../components/search-params.ts';
import { signedIn } from '../../lib/session.ts';

export const metadata: Metadata = { title: 'Overview' };

const RANGES = [
  { range: '24h', label: 'Last 24 hours' },
  { range: '7d', label: 'Last 7 days' },
] as const;

export default async function OverviewPage(props: { readonly searchParams: SearchParams }) {
  const { client } = await signedIn();
  // Links, not a script, switch the range: the page works without JavaScript.
  const range = (await paramsOf(props.searchParams)).range === '7d' ? '7d' : '24h';
  const [overview, activity] = await Promise.all([
    client.getOverview(),
    client.getActivity({ range }),
  ]);
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
        <HealthCards activity={activity} />
      </div>
      <nav className="range" aria-label="Range of the charts">
        <span>Charts (UTC, from the worker's hourly rollup):</span>
        {RANGES.map((option) => (
          <Link
            key={option.range}
            href={`/?range=${option.range}`}
            aria-current={option.range === range ? 'page' : undefined}
          >
            {option.label}
          </Link>
        ))}
      </nav>
      <ActivityCharts activity={activity} />
    </>
  );
}
