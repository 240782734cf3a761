import type { AdminActivity } from '@hallmark/sdk';
import { age, duration } from './scale.ts';
import { ShareBars } from './share-bars.tsx';
import { TimeChart } from './time-chart.tsx';

/** An hour as the axis and the table name it: `14:00` over a day, `11-28 14:00` over a week. */
function hourLabel(seconds: number, range: AdminActivity['range']): string {
  const iso = new Date(seconds * 1000).toISOString();
  return range === '24h' ? iso.slice(11, 16) : `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;
}

/** The overview's charts: work by outcome, job times, failures, the queue and webhooks. */
export function ActivityCharts({ activity }: { readonly activity: AdminActivity }) {
  const { hours, range } = activity;
  const labels = hours.map((hour) => hourLabel(hour.hour, range));
  const span = range === '24h' ? 'the last 24 hours' : 'the last 7 days';
  const total = (pick: (hour: AdminActivity['hours'][number]) => number) =>
    hours.reduce((sum, hour) => sum + pick(hour), 0);
  return (
    <div className="charts">
      <section>
        <h2>Jobs per hour</h2>
        <TimeChart
          id="jobs"
          kind="bars"
          title="Watermark jobs ended per hour (UTC)"
          description={`Over ${span}: ${total((hour) => hour.jobs.success)} succeeded, ${total((hour) => hour.jobs.failed)} failed; verifications: ${total((hour) => hour.verifications.success)} succeeded, ${total((hour) => hour.verifications.failed)} failed.`}
          labels={labels}
          series={[
            { name: 'succeeded', tone: 'ok', values: hours.map((hour) => hour.jobs.success) },
            { name: 'failed', tone: 'bad', values: hours.map((hour) => hour.jobs.failed) },
            {
              name: 'verifications',
              tone: 'accent',
              values: hours.map((hour) => hour.verifications.success + hour.verifications.failed),
            },
          ]}
        />
      </section>
      <section>
        <h2>Job time</h2>
        <TimeChart
          id="job-time"
          kind="lines"
          title="Time from request to end of a job, p50 and p95"
          description={`Over ${span}: half the jobs took at most ${duration(activity.jobP50Ms)}, 95 in 100 at most ${duration(activity.jobP95Ms)}.`}
          labels={labels}
          format={duration}
          minTop={1_000}
          series={[
            { name: 'p50', tone: 'accent', values: hours.map((hour) => hour.jobP50Ms) },
            { name: 'p95', tone: 'warn', values: hours.map((hour) => hour.jobP95Ms) },
          ]}
        />
      </section>
      <section>
        <h2>Failures by code</h2>
        <ShareBars
          caption={`Over ${span}, with the share of all that ended of the same kind`}
          empty="None."
          shares={activity.failures.map((failure) => ({
            label: failure.kind === 'watermark' ? failure.code : `${failure.kind}: ${failure.code}`,
            count: failure.count,
            share: failure.rate,
          }))}
        />
      </section>
      <section>
        <h2>Queue</h2>
        <TimeChart
          id="queue-depth"
          kind="lines"
          title="Jobs and verifications waiting, most at once per hour"
          description={`Over ${span}: at most ${Math.max(0, ...hours.map((hour) => hour.queueWaiting))} waiting at once.`}
          labels={labels}
          series={[
            { name: 'waiting', tone: 'accent', values: hours.map((hour) => hour.queueWaiting) },
          ]}
        />
        <TimeChart
          id="queue-age"
          kind="lines"
          title="Longest wait of a queued one, per hour"
          description={`Over ${span}: the oldest waited at most ${age(Math.max(0, ...hours.map((hour) => hour.queueOldestSeconds)))}.`}
          labels={labels}
          format={age}
          minTop={60}
          series={[
            {
              name: 'oldest',
              tone: 'warn',
              values: hours.map((hour) => hour.queueOldestSeconds),
            },
          ]}
        />
      </section>
      <section>
        <h2>Webhooks</h2>
        <TimeChart
          id="webhooks"
          kind="bars"
          title="Webhook delivery attempts per hour"
          description={`Over ${span}: ${total((hour) => hour.webhooks.success)} delivered, ${total((hour) => hour.webhooks.failed)} failed attempts.`}
          labels={labels}
          series={[
            { name: 'delivered', tone: 'ok', values: hours.map((hour) => hour.webhooks.success) },
            { name: 'failed', tone: 'bad', values: hours.map((hour) => hour.webhooks.failed) },
          ]}
        />
      </section>
    </div>
  );
}
