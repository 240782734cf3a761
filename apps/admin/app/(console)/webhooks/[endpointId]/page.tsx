import type { Metadata } from 'next';
import Link from 'next/link';
import { dateTime } from '../../../../components/format.ts';
import { Listing } from '../../../../components/listing.tsx';
import { load } from '../../../../components/load.ts';
import { paramsOf, type SearchParams } from '../../../../components/search-params.ts';
import { signedIn } from '../../../../lib/session.ts';

export const metadata: Metadata = { title: 'Webhook deliveries' };

export default async function DeliveriesPage(props: {
  readonly params: Promise<{ endpointId: string }>;
  readonly searchParams: SearchParams;
}) {
  const { client } = await signedIn();
  const { endpointId } = await props.params;
  const { cursor } = await paramsOf(props.searchParams);
  const page = await load(() => client.listEndpointDeliveries(endpointId, { cursor, limit: 25 }));
  return (
    <>
      <p>
        <Link href="/webhooks">← Webhooks</Link>
      </p>
      <h1>Deliveries</h1>
      <Listing
        page={page}
        headers={['Event', 'Id', 'Status', 'Created', 'Attempts']}
        row={(delivery) => (
          <tr key={delivery.id} data-testid="webhook-delivery">
            <td>
              <code>{delivery.eventType}</code>
            </td>
            <td>
              <code>{delivery.eventId}</code>
            </td>
            <td>
              <span className={`badge ${delivery.status}`}>{delivery.status}</span>
              {delivery.nextAttemptAt !== null && ` next ${dateTime(delivery.nextAttemptAt)}`}
            </td>
            <td>{dateTime(delivery.createdAt)}</td>
            <td>
              <ol className="attempts">
                {delivery.log.map((attempt) => (
                  <li key={attempt.attempt}>
                    {dateTime(attempt.at)}: {attempt.statusCode ?? 'no answer'} in{' '}
                    {attempt.latencyMs} ms{attempt.error !== null && ` (${attempt.error})`}
                  </li>
                ))}
              </ol>
            </td>
          </tr>
        )}
        empty="Nothing delivered yet."
        path={`/webhooks/${endpointId}`}
        cursor={cursor}
      />
    </>
  );
}
