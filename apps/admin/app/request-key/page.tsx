import type { Metadata } from 'next';
import { ActionForm, Field } from '../../components/action-form.tsx';
import { requestKeyAction } from '../../lib/actions.ts';

export const metadata: Metadata = { title: 'Request an API key' };

export default function RequestKeyPage() {
  return (
    <main className="narrow">
      <h1>Request an API key</h1>
      <p>
        Tell the operators who you are and what you will mark. They answer within two business days;
        the page you see next is your private link to the answer, and to the key itself.
      </p>
      <ActionForm action={requestKeyAction} submit="Send the request" label="Request an API key">
        <Field name="companyName" label="Company" />
        <Field name="purpose" label="Purpose" multiline />
        <Field name="contactName" label="Contact name" />
        <Field name="contactEmail" label="Contact email" type="email" />
        <Field name="website" label="Website (optional)" placeholder="https://" />
        <Field name="expectedVolume" label="Images a month (optional)" placeholder="about 5,000" />
        {/* The honeypot: hidden from people, filled by bots; the API drops such requests. */}
        <Field name="fax" label="Fax" hidden />
      </ActionForm>
    </main>
  );
}
