import type { Metadata } from 'next';
import { ActionForm, Field } from '../../../components/action-form.tsx';
import { dateTime } from '../../../components/format.ts';
import { load } from '../../../components/load.ts';
import { Pager } from '../../../components/pager.tsx';
import { paramsOf, type SearchParams } from '../../../components/search-params.ts';
import {
  createKeyAction,
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
      {'problem' in page ? (
        <p role="alert" className="error">
          {page.problem}
        </p>
      ) : (
        <>
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Prefix</th>
                <th>Created</th>
                <th>Last used</th>
                <th>Revoked</th>
                <th>Wallet</th>
                <th>Limit / min</th>
                {admin && <th>Settings</th>}
              </tr>
            </thead>
            <tbody>
              {page.data.items.map((key) => (
                <tr key={key.prefix} data-testid={`key-${key.prefix}`}>
                  <td>{key.name}</td>
                  <td>
                    <code>{key.prefix}</code>
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
              ))}
            </tbody>
          </table>
          <Pager path="/api-keys" filters={{}} cursor={cursor} nextCursor={page.data.nextCursor} />
        </>
      )}
    </>
  );
}
