import type { Metadata } from 'next';
import Link from 'next/link';
import { dayToSeconds } from '../../../components/date-filter.ts';
import { dateTime } from '../../../components/format.ts';
import { Listing } from '../../../components/listing.tsx';
import { load } from '../../../components/load.ts';
import { paramsOf, type SearchParams } from '../../../components/search-params.ts';
import { signedIn } from '../../../lib/session.ts';

export const metadata: Metadata = { title: 'Jobs' };

type JobStatus = 'pending' | 'processing' | 'success' | 'failed';

export default async function JobsPage(props: { readonly searchParams: SearchParams }) {
  const { client } = await signedIn();
  const filters = await paramsOf(props.searchParams);
  const { status, key, technique, from, to, cursor } = filters;
  const page = await load(() =>
    client.listJobs({
      status: status as JobStatus | undefined,
      key,
      technique: technique as 'invisible' | undefined,
      from: dayToSeconds(from, false),
      to: dayToSeconds(to, true),
      cursor,
      limit: 25,
    }),
  );
  return (
    <>
      <h1>Jobs</h1>
      <form className="filters" method="get">
        <label>
          Status{' '}
          <select name="status" defaultValue={status ?? ''}>
            <option value="">any</option>
            {['pending', 'processing', 'success', 'failed'].map((value) => (
              <option key={value}>{value}</option>
            ))}
          </select>
        </label>
        <label>
          Key <input name="key" defaultValue={key} placeholder="hm_xxxxxxxx" size={12} />
        </label>
        <label>
          Technique{' '}
          <select name="technique" defaultValue={technique ?? ''}>
            <option value="">any</option>
            <option value="invisible">invisible</option>
            <option value="c2pa">c2pa</option>
          </select>
        </label>
        <label>
          From <input name="from" type="date" defaultValue={from} />
        </label>
        <label>
          To <input name="to" type="date" defaultValue={to} />
        </label>
        <button type="submit">Filter</button>
      </form>
      <Listing
        page={page}
        headers={[
          'Job',
          'Status',
          'Key',
          'Techniques',
          'NFT / IPFS',
          'Created',
          'Finished',
          'Tries',
          'Error',
        ]}
        row={(job) => (
          <tr key={job.requestId} data-testid="job-row">
            <td>
              <Link href={`/jobs/${job.requestId}`}>
                <code>{job.requestId.slice(0, 8)}</code>
              </Link>
            </td>
            <td>
              <span className={`badge ${job.status}`}>{job.status}</span>
            </td>
            <td>
              <code>{job.keyPrefix}</code>
            </td>
            <td>{job.watermarkTypes.join(', ')}</td>
            <td>
              {job.mintNft ? 'NFT' : ''} {job.storeIpfs ? 'IPFS' : ''}
            </td>
            <td>{dateTime(job.createdAt)}</td>
            <td>{dateTime(job.finishedAt)}</td>
            <td>{job.attempts}</td>
            <td>{job.errorCode === null ? '' : <code>{job.errorCode}</code>}</td>
          </tr>
        )}
        empty="No jobs match."
        path="/jobs"
        cursor={cursor}
        filters={{ status, key, technique, from, to }}
      />
    </>
  );
}
