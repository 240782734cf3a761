import { HallmarkApiError } from '@hallmark/sdk';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { ActionForm } from '../../../../components/action-form.tsx';
import { dateTime } from '../../../../components/format.ts';
import { MediaPreview } from '../../../../components/media-preview.tsx';
import { retryJobAction } from '../../../../lib/actions.ts';
import { signedIn } from '../../../../lib/session.ts';

export const metadata: Metadata = { title: 'Job' };

export default async function JobPage(props: { readonly params: Promise<{ requestId: string }> }) {
  const { client, session } = await signedIn();
  const { requestId } = await props.params;
  let job: Awaited<ReturnType<typeof client.getJob>>;
  try {
    job = await client.getJob(requestId);
  } catch (error) {
    // A malformed id is as unknown as a missing one.
    if (error instanceof HallmarkApiError && (error.status === 404 || error.status === 400))
      notFound();
    throw error;
  }
  const totalMs = job.steps.reduce(
    (sum, step) => sum + (typeof step.ms === 'number' ? step.ms : 0),
    0,
  );
  return (
    <>
      <p>
        <Link href="/jobs">← Jobs</Link>
      </p>
      <h1>
        Job <code>{job.requestId}</code> <span className={`badge ${job.status}`}>{job.status}</span>
      </h1>
      <dl className="facts">
        <dt>Key</dt>
        <dd>
          <Link href={`/jobs?key=${job.keyPrefix}`}>
            <code>{job.keyPrefix}</code>
          </Link>
        </dd>
        <dt>File</dt>
        <dd>
          <code>{job.fileId}</code>
        </dd>
        <dt>Created</dt>
        <dd>{dateTime(job.createdAt)}</dd>
        <dt>Finished</dt>
        <dd>{dateTime(job.finishedAt)}</dd>
        <dt>Tries</dt>
        <dd>{job.attempts}</dd>
        {job.errorCode !== null && (
          <>
            <dt>Error</dt>
            <dd className="error">
              <code>{job.errorCode}</code> {job.errorMessage}
            </dd>
          </>
        )}
      </dl>
      {job.retryable && session.role === 'admin' && (
        <ActionForm action={retryJobAction} csrf={session.csrfToken} submit="Retry" label="Retry">
          <input type="hidden" name="requestId" value={job.requestId} />
        </ActionForm>
      )}
      {job.status === 'failed' && !job.retryable && (
        <p className="note" data-testid="not-retryable">
          Running it again would fail the same way: the picture itself caused this failure. The
          client must send another picture.
        </p>
      )}
      <h2>Steps</h2>
      {job.steps.length === 0 ? (
        <p>No step has finished yet.</p>
      ) : (
        <table className="steps">
          <thead>
            <tr>
              <th>Step</th>
              <th>Try</th>
              <th>Duration</th>
            </tr>
          </thead>
          <tbody>
            {job.steps.map((step, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: steps are an append-only log
              <tr key={index} data-testid="job-step">
                <td>{String(step.name)}</td>
                <td>{String(step.attempt ?? '')}</td>
                <td>{typeof step.ms === 'number' ? `${step.ms} ms` : ''}</td>
              </tr>
            ))}
            <tr>
              <th>Total</th>
              <td />
              <th>{Math.round(totalMs)} ms</th>
            </tr>
          </tbody>
        </table>
      )}
      <h2>Before and after</h2>
      <div className="preview">
        <figure>
          {job.inputUrl === null ? (
            <p>The upload is gone.</p>
          ) : (
            <MediaPreview
              url={job.inputUrl}
              contentType={job.contentType}
              alt="The upload, before marking"
            />
          )}
          <figcaption>Before (upload)</figcaption>
        </figure>
        <figure>
          {job.outputUrl === null ? (
            <p>{job.status === 'success' ? 'The output was deleted.' : 'No output yet.'}</p>
          ) : (
            <MediaPreview
              url={job.outputUrl}
              contentType={job.contentType}
              alt="The output, watermarked"
            />
          )}
          <figcaption>
            After (watermarked){' '}
            {job.outputUrl !== null && (
              <a href={job.outputUrl} download>
                Download
              </a>
            )}
          </figcaption>
        </figure>
      </div>
      <h2>Options</h2>
      <pre>{JSON.stringify(job.options, null, 2)}</pre>
    </>
  );
}
