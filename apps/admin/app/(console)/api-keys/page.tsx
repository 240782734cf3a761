import type { Metadata } from 'next';
import Link from 'next/link';
import { ActionForm, Field } from '../../../components/action-form.tsx';
import { dateTime } from '../../../components/format.ts';
import { Listing } from '../../../components/listing.tsx';
import { load } from '../../../components/load.ts';
import { paramsOf, type SearchParams } from '../../../components/search-params.ts';
import {
  createKeyAction,
  reissueKeyAction,
  revokeKeyAction,
  setRateLimitAction,
  setWalletAction,
} from '../../../lib/actions.ts';
import { signedIn } from '../../../lib/session.ts';

export const metadata: Metadata = { title: 'API keys' };

export default async function ApiKeysPage(props: { readonly searchParams: SearchParams }) {
  const { client, session } = await signedIn();
  const { cursor } = await paramsOf(props.searchParams);
  const page = await load(() => client.listApiKeys({ cursor, limit: 50 }));
  const admin = session.role === 'admin';
  return (
    <>
      <h1>API keys</h1>
      {admin && (
        <ActionForm
          action={createKeyAction}
          csrf={session.csrfToken}
          submit="Create a key"
          label="Create a key"
          className="inline"
        >
          <Field name="name" label="Name (company or team)" />
        </ActionForm>
      )}
      <Listing
        page={page}
        headers={[
          'Name',
          'Prefix',
          'Created',
          'Last used',
          'Revoked',
          'Wallet',
          'Limit / min',
          'Collected',
          ...(admin ? ['Settings'] : []),
        ]}
        row={(key) => (
          <tr key={key.prefix} data-testid={`key-${key.prefix}`}>
            <td>{key.name}</td>
            <td>
              <Link href={`/api-keys/${key.prefix}`} title="Usage and quota headroom">
                <code>{key.prefix}</code>
              </Link>
            </td>
            <td>{dateTime(key.createdAt)}</td>
            <td>{dateTime(key.lastUsedAt)}</td>
            <td data-testid="revoked-at">{dateTime(key.revokedAt)}</td>
            <td>
              {key.walletAddress === null ? (
                'custody'
              ) : (
                <code title={key.walletAddress}>{key.walletAddress.slice(0, 10)}…</code>
              )}
            </td>
            <td>{key.rateLimitPerMinute ?? 'default'}</td>
            <td data-testid="collection">
              {key.awaitingCollection ? (
                <>
                  <span className="badge pending">not yet collected</span>
                  {admin && (
                    <ActionForm
                      action={reissueKeyAction}
                      csrf={session.csrfToken}
                      submit="Re-issue"
                      label="Re-issue"
                    >
                      <input type="hidden" name="prefix" value={key.prefix} />
                    </ActionForm>
                  )}
                </>
              ) : (
                ''
              )}
            </td>
            {admin && (
              <td>
                <details>
                  <summary>Change</summary>
                  <ActionForm
                    action={setWalletAction}
                    csrf={session.csrfToken}
                    submit="Save wallet"
                    label="Wallet"
                  >
                    <input type="hidden" name="prefix" value={key.prefix} />
                    <Field
                      name="walletAddress"
                      label="Wallet (empty: custody)"
                      defaultValue={key.walletAddress ?? ''}
                      placeholder="0x…"
                    />
                  </ActionForm>
                  <ActionForm
                    action={setRateLimitAction}
                    csrf={session.csrfToken}
                    submit="Save limit"
                    label="Rate limit"
                  >
                    <input type="hidden" name="prefix" value={key.prefix} />
                    <Field
                      name="rateLimitPerMinute"
                      label="Requests a minute (empty: default)"
                      defaultValue={key.rateLimitPerMinute?.toString() ?? ''}
                    />
                  </ActionForm>
                  {key.revokedAt === null && (
                    <ActionForm
                      action={revokeKeyAction}
                      csrf={session.csrfToken}
                      submit="Revoke"
                      label="Revoke"
                      danger
                    >
                      <input type="hidden" name="prefix" value={key.prefix} />
                    </ActionForm>
                  )}
                </details>
              </td>
            )}
          </tr>
        )}
        empty="No API keys yet."
        path="/api-keys"
        cursor={cursor}
      />
    </>
  );
}
