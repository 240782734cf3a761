import type { ReactNode } from 'react';

/** What went wrong, announced to screen readers; nothing when there is no error. */
export function ErrorMessage({ children }: { readonly children: ReactNode }) {
  if (children === undefined || children === null || children === false) return null;
  return (
    <p role="alert" className="error">
      {children}
    </p>
  );
}
