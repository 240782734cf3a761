import { HallmarkApiError } from '@hallmark/sdk';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { KeyUsageCharts } from '../../../../components/charts/key-usage-charts.tsx';
import { signedIn } from '../../../../lib/session.ts';

export const metadata: Metadata = { title: 'API key usage' };

export default async function ApiKeyUsagePage(props: {
  readonly params: Promise<{ prefix: string }>;
}) {
  const { client } = await signedIn();
  const { prefix } = await props.params;
  let usage: Awaited<ReturnType<typeof client.getApiKeyUsage>>;
  try {
    usage = await client.getApiKeyUsage(prefix);
  } catch (error) {
    // A malformed prefix is as unknown as a missing one.
    if (error instanceof HallmarkApiError && (error.status === 404 || error.status === 400))
      notFound();
    throw error;
  }
  return (
    <>
      <p>
        <Link href="/api-keys">← API keys</Link>
      </p>
      <h1>
        Usage of <code>{usage.prefix}</code>
      </h1>
      <p className="note">
        UTC days, from the worker's rollup; the headroom is read from the quotas' own counters.{' '}
        <Link href={`/jobs?key=${usage.prefix}`}>Its jobs</Link>
      </p>
      <KeyUsageCharts usage={usage} />
    </>
  );
}
