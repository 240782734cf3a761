import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import './globals.css';

// Every page is rendered per request: its scripts carry that request's CSP nonce (server.ts).
export const dynamic = 'force-dynamic';

export const metadata: Metadata = {
  title: { default: 'Hallmark console', template: '%s · Hallmark console' },
  robots: { index: false, follow: false },
};

export default function RootLayout({ children }: { readonly children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
