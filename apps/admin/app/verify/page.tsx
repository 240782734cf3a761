import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { PublicVerifyForm } from '../../components/report/public-verify-form.tsx';
import { publicClient } from '../../lib/api.ts';

export const metadata: Metadata = {
  title: 'Check a picture',
  // The console answers `Referrer-Policy: no-referrer`, under which a browser posting a form
  // without JavaScript sends `Origin: null`, and Next.js refuses such an action as forged. This
  // page's address holds no secret, so its own requests may name their origin.
  referrer: 'same-origin',
};

/** Anyone's page, offered only while the deployment enables it (PUBLIC_VERIFY). */
export default async function PublicVerifyPage() {
  const settings = await (await publicClient()).getPublicVerifySettings();
  if (!settings.enabled) notFound();
  return (
    <main className="narrow public-verify">
      <h1>Check a picture</h1>
      <p>
        Find out whether a picture was issued by this service, whether its Content Credentials are
        intact, and whether it was changed since. The picture is checked at once and not kept.
      </p>
      <PublicVerifyForm maxMegabytes={(settings.maxBytes / 1024 / 1024).toFixed(0)} />
    </main>
  );
}
