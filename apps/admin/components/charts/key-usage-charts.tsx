import type { AdminKeyUsage } from '@hallmark/sdk';
import { bytes, percent } from './scale.ts';
import { TimeChart } from './time-chart.tsx';

/** How much of a limit is used, as a bar with the numbers beside it. */
function Headroom({
  label,
  used,
  limit,
  format = String,
}: {
  readonly label: string;
  readonly used: number;
  readonly limit: number;
  readonly format?: (value: number) => string;
}) {
  const share = limit > 0 ? Math.min(used / limit, 1) : 1;
  return (
    <>
      <dt>{label}</dt>
      <dd>
        <svg viewBox="0 0 100 10" className="share" aria-hidden="true">
          <rect className="track" x={0} y={0} width={100} height={10} />
          <rect
            className={share >= 0.9 ? 'series-bad' : share >= 0.7 ? 'series-warn' : 'series-ok'}
            x={0}
            y={0}
            width={Math.max(share * 100, 1)}
            height={10}
          />
        </svg>{' '}
        {format(used)} of {format(limit)} ({percent(share)}); {format(Math.max(limit - used, 0))}{' '}
        left
      </dd>
    </>
  );
}

/** A key's page: its quota headroom now, and its work day by day. */
export function KeyUsageCharts({ usage }: { readonly usage: AdminKeyUsage }) {
  const { days, quota } = usage;
  const labels = days.map((day) => day.day.slice(5));
  const sum = (pick: (day: AdminKeyUsage['days'][number]) => number) =>
    days.reduce((total, day) => total + pick(day), 0);
  return (
    <>
      <section className="headroom">
        <h2>Quota headroom</h2>
        <dl className="facts" data-testid="headroom">
          <Headroom label="NFT jobs today" used={quota.mintsToday} limit={quota.mintsPerDay} />
          <Headroom
            label="Stored"
            used={quota.storedBytes}
            limit={quota.storedBytesLimit}
            format={bytes}
          />
          <dt>Requests per minute</dt>
          <dd>{quota.rateLimitPerMinute}</dd>
        </dl>
      </section>
      <div className="charts">
        <section>
          <h2>Jobs and verifications per day</h2>
          <TimeChart
            id="key-jobs"
            kind="bars"
            title="Jobs and verifications asked for per UTC day"
            description={`Over the last 30 days: ${sum((day) => day.jobs)} jobs and ${sum((day) => day.verifications)} verifications.`}
            labels={labels}
            series={[
              { name: 'jobs', tone: 'accent', values: days.map((day) => day.jobs) },
              {
                name: 'verifications',
                tone: 'muted',
                values: days.map((day) => day.verifications),
              },
            ]}
          />
        </section>
        <section>
          <h2>NFT jobs per day</h2>
          <TimeChart
            id="key-mints"
            kind="bars"
            title="NFT jobs accepted per UTC day"
            description={`Over the last 30 days: ${sum((day) => day.mints)}; the quota allows ${quota.mintsPerDay} a day.`}
            labels={labels}
            series={[{ name: 'NFT jobs', tone: 'warn', values: days.map((day) => day.mints) }]}
          />
        </section>
        <section>
          <h2>Bytes uploaded per day</h2>
          <TimeChart
            id="key-bytes"
            kind="bars"
            title="Bytes uploaded per UTC day"
            description={`Over the last 30 days: ${bytes(sum((day) => day.bytes))}.`}
            labels={labels}
            format={bytes}
            minTop={1_048_576}
            series={[{ name: 'uploaded', tone: 'ok', values: days.map((day) => day.bytes) }]}
          />
        </section>
      </div>
    </>
  );
}
