import type { Metadata } from 'next';
import { ActionForm } from '../../../components/action-form.tsx';
import { dateTime } from '../../../components/format.ts';
import { load } from '../../../components/load.ts';
import {
  changeOperatorAction,
  resetOperatorPasswordAction,
  signOutOperatorAction,
} from '../../../lib/actions.ts';
import { signedIn } from '../../../lib/session.ts';

export const metadata: Metadata = { title: 'Operators' };

/** The console's operators; admins disable, demote, sign out and reset them here. */
export default async function OperatorsPage() {
  const { client, session } = await signedIn();
  if (session.role !== 'admin') {
    return (
      <>
        <h1>Operators</h1>
        <p>Only admins see and manage the operators.</p>
      </>
    );
  }
  const loaded = await load(() => client.listOperators());
  if ('problem' in loaded) {
    return (
      <>
        <h1>Operators</h1>
        <p role="alert">{loaded.problem}</p>
      </>
    );
  }
  const items = loaded.data.items;
  return (
    <>
      <h1>Operators</h1>
      <p>
        Disabling ends an operator's sessions at once and refuses their sign-in; at least one
        enabled admin always remains. Every change is in the audit log.
      </p>
      <table>
        <thead>
          <tr>
            <th>Email</th>
            <th>Role</th>
            <th>State</th>
            <th>Sessions</th>
            <th>Since</th>
            <th>Manage</th>
          </tr>
        </thead>
        <tbody>
          {items.map((operator) => (
            <tr key={operator.operatorId} data-testid={`operator-${operator.email}`}>
              <td>{operator.email}</td>
              <td data-testid="role">{operator.role}</td>
              <td data-testid="state">
                {operator.disabledAt !== null
                  ? 'disabled'
                  : operator.lockedUntil !== null
                    ? `locked until ${dateTime(operator.lockedUntil)}`
                    : 'enabled'}
              </td>
              <td>{operator.activeSessions}</td>
              <td>{dateTime(operator.createdAt)}</td>
              <td>
                <details>
                  <summary>Manage</summary>
                  {changesOf(operator).map(({ value, label }) => (
                    <ActionForm
                      key={value}
                      action={changeOperatorAction}
                      csrf={session.csrfToken}
                      submit={label}
                      label={label}
                      danger={value === 'disable'}
                    >
                      <input type="hidden" name="operatorId" value={operator.operatorId} />
                      <input type="hidden" name="change" value={value} />
                    </ActionForm>
                  ))}
                  <ActionForm
                    action={signOutOperatorAction}
                    csrf={session.csrfToken}
                    submit="Sign out everywhere"
                    label="Sessions"
                  >
                    <input type="hidden" name="operatorId" value={operator.operatorId} />
                  </ActionForm>
                  <ActionForm
                    action={resetOperatorPasswordAction}
                    csrf={session.csrfToken}
                    submit="Reset password"
                    label="Password"
                    danger
                  >
                    <input type="hidden" name="operatorId" value={operator.operatorId} />
                  </ActionForm>
                </details>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** The role and state changes offered for an operator: the opposite of what they are. */
function changesOf(operator: {
  readonly role: string;
  readonly disabledAt: number | null;
}): ReadonlyArray<{ readonly value: string; readonly label: string }> {
  return [
    operator.role === 'admin'
      ? { value: 'viewer', label: 'Make viewer' }
      : { value: 'admin', label: 'Make admin' },
    operator.disabledAt === null
      ? { value: 'disable', label: 'Disable' }
      : { value: 'enable', label: 'Enable' },
  ];
}
