'use client';
// The public page's form: a plain multipart form (it posts and renders without JavaScript), and
// with JavaScript the picture chosen stays on the page to outline the edited regions on.
import { useActionState, useState } from 'react';
import { type PublicVerifyState, publicVerifyAction } from '../../lib/verify-actions.ts';
import { ErrorMessage } from '../error-message.tsx';
import { dateTime } from '../format.ts';
import { ReportView } from './report-view.tsx';

const EMPTY: PublicVerifyState = {};

export function PublicVerifyForm(props: { readonly maxMegabytes: string }) {
  const [state, action, pending] = useActionState(publicVerifyAction, EMPTY);
  const [preview, setPreview] = useState<string | undefined>(undefined);
  return (
    <>
      <form action={action} className="verify-form" aria-label="Check a picture">
        <label className="drop-zone">
          <span>
            <strong>Drop a picture here</strong> or choose one (JPEG, PNG, WebP, AVIF, TIFF, or any
            other image, clip or recording C2PA signs, checked by its credentials; at most{' '}
            {props.maxMegabytes} MB)
          </span>
          <input
            type="file"
            name="image"
            accept="image/*,video/*,audio/*"
            data-testid="image"
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              setPreview((old) => {
                if (old !== undefined) URL.revokeObjectURL(old);
                // Only a picture has regions to outline; a clip or a recording is not shown.
                return file?.type.startsWith('image/') === true
                  ? URL.createObjectURL(file)
                  : undefined;
              });
            }}
          />
        </label>
        <button type="submit" disabled={pending}>
          {pending ? 'Checking…' : 'Check the picture'}
        </button>
        <ErrorMessage>{state.error}</ErrorMessage>
      </form>
      {state.verification !== undefined && (
        <ReportView report={state.verification.report} picture={preview}>
          <p className="muted">
            {state.fileName ?? 'The picture'}, checked {dateTime(state.verification.verifiedAt)}.
            The picture was not kept.
          </p>
          <SignedReportLink signedReport={state.verification.signedReport} />
        </ReportView>
      )}
    </>
  );
}

/**
 * The signed report rides in the answer (the picture is not kept, so it cannot be signed later),
 * offered as a data: link: a download without JavaScript and without another request.
 */
function SignedReportLink(props: { readonly signedReport: string | null }) {
  if (props.signedReport === null) {
    return (
      <p className="muted" data-testid="no-signed-report">
        No signed report this time: the time-stamping service did not answer. Check the picture
        again later for one.
      </p>
    );
  }
  return (
    <p>
      <a
        className="button"
        data-testid="download-report"
        download="hallmark-report.json"
        href={`data:application/json;charset=utf-8,${encodeURIComponent(props.signedReport)}`}
      >
        Download the signed report
      </a>{' '}
      <span className="muted">
        Keep it: it proves what this service said about this exact file, and anyone can check it
        offline against the service's published keys.
      </span>
    </p>
  );
}
