import type { Metadata } from 'next';
import Link from 'next/link';
import { dateTime } from '../../../components/format.ts';
import { Listing } from '../../../components/listing.tsx';
import { load } from '../../../components/load.ts';
import { paramsOf, type SearchParams } from '../../../components/search-params.ts';
import { signedIn } from '../../../lib/session.ts';

export const metadata: Metadata = { title: 'Webhooks' };

export default async function WebhooksPage(props: { readonly searchParams: SearchParams }) {
  const { client } = await signedIn();
  const { cursor } = await paramsOf(props.searchParams);
  const page = await load(() => client.listAllWebhookEndpoints({ cursor, limit: 25 }));
  return (
    <>
      <h1>Webhooks</h1>
      <p className="note">
        Endpoints that keys registered, with their deliveries. Keys manage their own endpoints
        through the API.
      </p>
      <Listing
        page={page}
        headers={['URL', 'Key', 'Events', 'Registered', 'Delivered', 'Pending', 'Failed', 'State']}
        row={(endpoint) => (
          <tr key={endpoint.id} data-testid="webhook-endpoint">
            <td>
              <Link href={`/webhooks/${endpoint.id}`}>{endpoint.url}</Link>
            </td>
            <td>
              <code>{endpoint.keyPrefix}</code>
            </td>
            <td>{endpoint.events.length === 0 ? 'all' : endpoint.events.join(', ')}</td>
            <td>{dateTime(endpoint.createdAt)}</td>
            <td>{endpoint.deliveries.succeeded}</td>
            <td>{endpoint.deliveries.pending}</td>
            <td>{endpoint.deliveries.failed}</td>
            <td>
              {endpoint.disabledAt === null ? (
                <span className="badge success">active</span>
              ) : (
                <span className="badge failed" title={endpoint.disabledReason ?? ''}>
                  disabled {dateTime(endpoint.disabledAt)}
                </span>
              )}
            </td>
          </tr>
        )}
        empty="No endpoint is registered."
        path="/webhooks"
        cursor={cursor}
      />
    </>
  );
}
