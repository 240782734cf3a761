import type { Metadata } from 'next';
import Link from 'next/link';
import { ActionForm, Field } from '../../components/action-form.tsx';
import { signInAction } from '../../lib/actions.ts';

export const metadata: Metadata = { title: 'Sign in' };

export default function SignInPage() {
  return (
    <main className="narrow">
      <h1>Hallmark console</h1>
      <p>
        For operators of this Hallmark service. Accounts are made with{' '}
        <code>hallmark admins create</code>.
      </p>
      <ActionForm action={signInAction} submit="Sign in" label="Sign in">
        <Field name="email" label="Email" type="email" />
        <Field name="password" label="Password" type="password" />
      </ActionForm>
      <p>
        Need an API key for your team? <Link href="/request-key">Request one</Link>.
      </p>
    </main>
  );
}
