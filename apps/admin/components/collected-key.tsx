'use client';
// The requester's key, collected: a form that POSTs (so it works before, or without, the page's
// scripts), then the key once, the API's address and a first call to paste, with copy buttons
// once scripts run (a button that cannot copy is not shown).
import { useActionState, useEffect, useState } from 'react';
import type { CollectedKeyState } from '../lib/actions.ts';
import { EMPTY_FORM } from '../lib/form-state.ts';
import { ErrorMessage } from './error-message.tsx';

type Collect = (previous: CollectedKeyState, form: FormData) => Promise<CollectedKeyState>;

export function CollectKeyForm(props: {
  readonly action: Collect;
  readonly requestId: string;
  readonly token: string;
  /** The key waits for its requester. */
  readonly ready: boolean;
  readonly prefix: string | undefined;
}) {
  const [state, formAction, pending] = useActionState<CollectedKeyState, FormData>(
    props.action,
    EMPTY_FORM,
  );
  if (state.secret !== undefined && state.apiUrl !== undefined) {
    return <CollectedKey apiKey={state.secret} apiUrl={state.apiUrl} />;
  }
  const prefix = props.prefix === undefined ? '' : <code>{props.prefix}…</code>;
  if (!props.ready && state.error === undefined) {
    return (
      <p>
        Your key {prefix} was shown when it was collected; only its prefix is kept. Lost it? Ask the
        operators for a new one.
      </p>
    );
  }
  return (
    <form action={formAction} aria-label="Collect the key">
      <p>
        Approved: your key {prefix} is ready. Opening this page does not use it up; it is shown
        once, when you press the button: copy it then and keep it secret.
      </p>
      <input type="hidden" name="requestId" value={props.requestId} />
      <input type="hidden" name="token" value={props.token} />
      <button type="submit" disabled={pending}>
        Show my key
      </button>
      <ErrorMessage>{state.error}</ErrorMessage>
    </form>
  );
}

function CollectedKey(props: { readonly apiKey: string; readonly apiUrl: string }) {
  // The first call of the flow (docs/flow.md): a file id and an upload link, proof the key works.
  const curl = [
    `curl -sS -X POST '${props.apiUrl}/claim/file-upload-link' \\`,
    `  -H 'Authorization: Bearer ${props.apiKey}' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '{"contentType":"image/jpeg","fileName":"photo.jpg"}'`,
  ].join('\n');
  return (
    <div data-testid="collected-key">
      <p role="status" className="ok">
        Your key, shown this once: copy it now and keep it secret. Send it as{' '}
        <code>Authorization: Bearer …</code>.
      </p>
      <p>
        <code data-testid="secret">{props.apiKey}</code> <CopyButton text={props.apiKey} />
      </p>
      <p>
        API address: <code data-testid="api-url">{props.apiUrl}</code>
      </p>
      <p>
        A first call (a file id and an upload link):{' '}
        <CopyButton text={curl} label="Copy the command" />
      </p>
      <pre data-testid="first-curl">{curl}</pre>
    </div>
  );
}

function CopyButton(props: { readonly text: string; readonly label?: string }) {
  const [scripted, setScripted] = useState(false);
  const [copied, setCopied] = useState<'copied' | 'refused' | null>(null);
  useEffect(() => setScripted(true), []);
  if (!scripted) return null;
  const label = props.label ?? 'Copy';
  return (
    <button
      type="button"
      onClick={() => {
        navigator.clipboard.writeText(props.text).then(
          () => setCopied('copied'),
          () => setCopied('refused'),
        );
      }}
    >
      {copied === 'copied' ? 'Copied' : copied === 'refused' ? 'Copy refused: select it' : label}
    </button>
  );
}
