import type { Metadata } from 'next';
import Link from 'next/link';
import { ActionForm } from '../../../components/action-form.tsx';
import { dayToSeconds } from '../../../components/date-filter.ts';
import { dateTime } from '../../../components/format.ts';
import { Listing } from '../../../components/listing.tsx';
import { load } from '../../../components/load.ts';
import { VERDICT_WORDING } from '../../../components/report/verdicts.ts';
import { paramsOf, type SearchParams } from '../../../components/search-params.ts';
import { signedIn } from '../../../lib/session.ts';
import { operatorVerifyAction } from '../../../lib/verify-actions.ts';

export const metadata: Metadata = { title: 'Verifications' };

type Verdict = keyof typeof VERDICT_WORDING;
const ORIGINS = { api: 'API key', public: 'public page', console: 'console' } as const;

export default async function VerificationsPage(props: { readonly searchParams: SearchParams }) {
  const { client, session } = await signedIn();
  const filters = await paramsOf(props.searchParams);
  const { verdict, key, origin, from, to, cursor } = filters;
  const page = await load(() =>
    client.listVerifications({
      verdict: verdict as Verdict | undefined,
      key,
      origin: origin as keyof typeof ORIGINS | undefined,
      from: dayToSeconds(from, false),
      to: dayToSeconds(to, true),
      cursor,
      limit: 25,
    }),
  );
  return (
    <>
      <h1>Verifications</h1>
      {session.role === 'admin' && (
        <ActionForm
          action={operatorVerifyAction}
          csrf={session.csrfToken}
          submit="Verify"
          label="Verify an image"
          className="inline verify-image"
        >
          <label className="field">
            <span>Verify an image</span>
            <input
              type="file"
              name="image"
              accept="image/*,video/*,audio/*"
              data-testid="operator-image"
            />
          </label>
        </ActionForm>
      )}
      <form className="filters" method="get">
        <label>
          Verdict{' '}
          <select name="verdict" defaultValue={verdict ?? ''}>
            <option value="">any</option>
            {Object.entries(VERDICT_WORDING).map(([value, wording]) => (
              <option key={value} value={value}>
                {wording.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Key <input name="key" defaultValue={key} placeholder="hm_xxxxxxxx" size={12} />
        </label>
        <label>
          Asked by{' '}
          <select name="origin" defaultValue={origin ?? ''}>
            <option value="">anyone</option>
            {Object.entries(ORIGINS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
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
        headers={['Verification', 'Status', 'Verdict', 'Asked by', 'Mark', 'Created']}
        row={(item) => (
          <tr key={item.verificationId} data-testid="verification-row">
            <td>
              <Link href={`/verifications/${item.verificationId}`}>
                <code>{item.verificationId.slice(0, 8)}</code>
              </Link>
            </td>
            <td>
              <span className={`badge ${item.status}`}>{item.status}</span>
            </td>
            <td>
              {item.verdict === null ? (
                '—'
              ) : (
                <span className={`verdict-badge ${VERDICT_WORDING[item.verdict].tone}`}>
                  {VERDICT_WORDING[item.verdict].label}
                </span>
              )}
            </td>
            <td>
              {item.keyPrefix !== null ? (
                <code>{item.keyPrefix}</code>
              ) : (
                (item.operatorEmail ?? ORIGINS[item.origin])
              )}
            </td>
            <td>{item.markPayload === null ? '—' : <code>{item.markPayload}</code>}</td>
            <td>{dateTime(item.createdAt)}</td>
          </tr>
        )}
        empty="No verifications match."
        path="/verifications"
        cursor={cursor}
        filters={{ verdict, key, origin, from, to }}
      />
    </>
  );
}
