import Link from 'next/link';
import type { ReactNode } from 'react';
import { ActionForm } from '../../components/action-form.tsx';
import { signOutAction } from '../../lib/actions.ts';
import { signedIn } from '../../lib/session.ts';

// Every page of the console reads live data with the operator's session: never prerendered.
export const dynamic = 'force-dynamic';

const SECTIONS = [
  ['/', 'Overview'],
  ['/key-requests', 'Key requests'],
  ['/api-keys', 'API keys'],
  ['/jobs', 'Jobs'],
  ['/verifications', 'Verifications'],
  ['/nfts', 'NFTs'],
  ['/ipfs', 'IPFS records'],
  ['/webhooks', 'Webhooks'],
  ['/audit', 'Audit log'],
  ['/operators', 'Operators'],
] as const;

export default async function ConsoleLayout({ children }: { readonly children: ReactNode }) {
  const { session } = await signedIn();
  return (
    <div className="console">
      <header>
        <strong className="brand">Hallmark</strong>
        <nav aria-label="Sections">
          {SECTIONS.map(([href, label]) => (
            <Link key={href} href={href}>
              {label}
            </Link>
          ))}
        </nav>
        <div className="operator">
          <span data-testid="operator">
            {session.email} ({session.role})
          </span>
          <ActionForm
            action={signOutAction}
            csrf={session.csrfToken}
            submit="Sign out"
            className="inline"
          />
        </div>
      </header>
      <main>{children}</main>
    </div>
  );
}
