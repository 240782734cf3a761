import type { AdminActivity } from '@hallmark/sdk';
import { dateTime } from '../format.ts';

/** Each worker's last heartbeat, and what the chain and IPFS did over the range. */
export function HealthCards({ activity }: { readonly activity: AdminActivity }) {
  return (
    <>
      <section>
        <h2>Workers</h2>
        {activity.workers.length === 0 ? (
          <p className="error">No worker has reported.</p>
        ) : (
          <ul className="checks" data-testid="workers">
            {activity.workers.map((worker) => (
              <li key={worker.id}>
                <span className={`badge ${worker.live ? 'live' : 'down'}`}>
                  {worker.live ? 'live' : 'silent'}
                </span>{' '}
                <code title={worker.id}>
                  {worker.host}:{worker.pid}
                </code>{' '}
                last seen {dateTime(worker.lastSeenAt)}
              </li>
            ))}
          </ul>
        )}
      </section>
      {(['chain', 'ipfs'] as const).map((name) => {
        const dependency = activity[name];
        return (
          <section key={name}>
            <h2>{name === 'chain' ? 'Chain' : 'IPFS'}</h2>
            <dl className="facts" data-testid={`${name}-activity`}>
              <dt>{name === 'chain' ? 'Mints' : 'Stored'}</dt>
              <dd>{dependency.successes}</dd>
              <dt>Jobs failed on it</dt>
              <dd className={dependency.failures > 0 ? 'error' : undefined}>
                {dependency.failures}
              </dd>
              <dt>Last success</dt>
              <dd>{dateTime(dependency.lastSuccessAt)}</dd>
            </dl>
          </section>
        );
      })}
    </>
  );
}
