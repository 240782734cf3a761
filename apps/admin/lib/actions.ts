'use server';
// Every change the console makes: each one is a call of the admin client with the form's CSRF
// token (the API checks it), and its refusal comes back as form state, field by field.
import { revalidatePath } from 'next/cache';
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { API_SESSION_COOKIE, adminClient, publicClient, SESSION_COOKIE } from './api.ts';
import { type FormState, problemState, textOf } from './form-state.ts';

function csrfOf(form: FormData): string {
  return textOf(form, 'csrf') ?? '';
}

/** Runs one change; on success the console's pages are rendered afresh. */
async function change(run: () => Promise<FormState>): Promise<FormState> {
  try {
    const state = await run();
    revalidatePath('/', 'layout');
    return state;
  } catch (error) {
    return problemState(error);
  }
}

export async function signInAction(_previous: FormState, form: FormData): Promise<FormState> {
  let sessionCookie: string | undefined;
  try {
    const client = await adminClient((response) => {
      sessionCookie ??= response.headers.get('set-cookie') ?? undefined;
    });
    await client.signIn({
      email: textOf(form, 'email') ?? '',
      password: textOf(form, 'password') ?? '',
    });
  } catch (error) {
    return problemState(error);
  }
  const token = sessionCookie?.match(new RegExp(`(?:^|;\\s*)${API_SESSION_COOKIE}=([^;]+)`))?.[1];
  if (token === undefined) return { error: 'The API signed you in but set no session.' };
  const maxAge = Number(sessionCookie?.match(/Max-Age=(\d+)/i)?.[1] ?? 3600);
  (await cookies()).set(SESSION_COOKIE, token, { ...(await sessionCookieAttributes()), maxAge });
  redirect('/');
}

export async function signOutAction(_previous: FormState, form: FormData): Promise<FormState> {
  try {
    await (await adminClient()).signOut({ csrfToken: csrfOf(form) });
  } catch (error) {
    return problemState(error);
  }
  // Ended with the attributes it was set with: a `__Host-` cookie is only replaced by a Secure one.
  (await cookies()).set(SESSION_COOKIE, '', { ...(await sessionCookieAttributes()), maxAge: 0 });
  redirect('/sign-in');
}

async function sessionCookieAttributes() {
  const https = (await headers()).get('x-forwarded-proto') === 'https';
  return {
    httpOnly: true,
    sameSite: 'strict',
    secure: https || process.env.NODE_ENV === 'production',
    path: '/',
  } as const;
}

export async function requestKeyAction(_previous: FormState, form: FormData): Promise<FormState> {
  let statusUrl: URL;
  let requestId: string;
  try {
    const accepted = await (await publicClient()).createKeyRequest({
      companyName: textOf(form, 'companyName') ?? '',
      purpose: textOf(form, 'purpose') ?? '',
      contactName: textOf(form, 'contactName') ?? '',
      contactEmail: textOf(form, 'contactEmail') ?? '',
      website: textOf(form, 'website'),
      expectedVolume: textOf(form, 'expectedVolume'),
      fax: textOf(form, 'fax'),
    });
    statusUrl = new URL(accepted.statusUrl);
    requestId = accepted.requestId;
  } catch (error) {
    return problemState(error);
  }
  // The console's own page for the API's status link (same request, same private token).
  const token = statusUrl.searchParams.get('token') ?? '';
  redirect(`/request-key/${requestId}?token=${encodeURIComponent(token)}&new=1`);
}

/** What the requester's collection shows: the key once, and where to use it. */
export interface CollectedKeyState extends FormState {
  readonly apiUrl?: string;
}

/**
 * The requester collects the key of an approved request: a POST from a button on the status page,
 * never the page's own GET (a mail scanner following the mailed link would take the key).
 */
export async function collectKeyAction(
  _previous: CollectedKeyState,
  form: FormData,
): Promise<CollectedKeyState> {
  try {
    const collected = await (await publicClient()).collectKeyRequestKey(
      textOf(form, 'requestId') ?? '',
      { token: textOf(form, 'token') ?? '' },
    );
    return { secret: collected.apiKey, apiUrl: collected.apiUrl };
  } catch (error) {
    return problemState(error);
  }
}

export async function approveAction(_previous: FormState, form: FormData): Promise<FormState> {
  return change(async () => {
    const approved = await (await adminClient()).approveKeyRequest(
      textOf(form, 'requestId') ?? '',
      {
        csrfToken: csrfOf(form),
      },
    );
    return {
      ok: `Approved: a key was created for ${approved.companyName}; it waits for the requester at their status link.`,
    };
  });
}

export async function rejectAction(_previous: FormState, form: FormData): Promise<FormState> {
  return change(async () => {
    const rejected = await (await adminClient()).rejectKeyRequest(
      textOf(form, 'requestId') ?? '',
      { reason: textOf(form, 'reason') ?? '' },
      { csrfToken: csrfOf(form) },
    );
    return { ok: `Rejected the request of ${rejected.companyName}.` };
  });
}

export async function createKeyAction(_previous: FormState, form: FormData): Promise<FormState> {
  return change(async () => {
    const created = await (await adminClient()).createApiKey(
      { name: textOf(form, 'name') ?? '' },
      { csrfToken: csrfOf(form) },
    );
    return { ok: `Created ${created.prefix}… (${created.name}).`, secret: created.apiKey };
  });
}

export async function revokeKeyAction(_previous: FormState, form: FormData): Promise<FormState> {
  return change(async () => {
    const revoked = await (await adminClient()).revokeApiKey(textOf(form, 'prefix') ?? '', {
      csrfToken: csrfOf(form),
    });
    return { ok: `Revoked ${revoked.prefix}….` };
  });
}

export async function reissueKeyAction(_previous: FormState, form: FormData): Promise<FormState> {
  return change(async () => {
    const reissued = await (await adminClient()).reissueApiKey(textOf(form, 'prefix') ?? '', {
      csrfToken: csrfOf(form),
    });
    return {
      ok: `Re-issued as ${reissued.prefix}…: the requester collects it at the same link (mailed again).`,
    };
  });
}

export async function setWalletAction(_previous: FormState, form: FormData): Promise<FormState> {
  return change(async () => {
    const key = await (await adminClient()).setApiKeyWallet(
      textOf(form, 'prefix') ?? '',
      { walletAddress: textOf(form, 'walletAddress')?.trim() ?? null },
      { csrfToken: csrfOf(form) },
    );
    return { ok: key.walletAddress === null ? 'Mints go to the custody wallet.' : 'Wallet saved.' };
  });
}

export async function setRateLimitAction(_previous: FormState, form: FormData): Promise<FormState> {
  const text = textOf(form, 'rateLimitPerMinute')?.trim();
  // Not a number: sent as typed, so the API's validation names the field.
  const value = text === undefined ? null : /^\d+$/.test(text) ? Number(text) : text;
  return change(async () => {
    const key = await (await adminClient()).setApiKeyRateLimit(
      textOf(form, 'prefix') ?? '',
      { rateLimitPerMinute: value as number | null },
      { csrfToken: csrfOf(form) },
    );
    return {
      ok:
        key.rateLimitPerMinute === null
          ? 'The deployment-wide limit applies.'
          : `Limit: ${key.rateLimitPerMinute} requests a minute.`,
    };
  });
}

export async function retryJobAction(_previous: FormState, form: FormData): Promise<FormState> {
  return change(async () => {
    const job = await (await adminClient()).retryJob(textOf(form, 'requestId') ?? '', {
      csrfToken: csrfOf(form),
    });
    return { ok: `Queued again (${job.status}).` };
  });
}

/** An operator's role or state: `change` is disable, enable, admin or viewer. */
export async function changeOperatorAction(
  _previous: FormState,
  form: FormData,
): Promise<FormState> {
  const wanted = textOf(form, 'change');
  const body =
    wanted === 'disable' || wanted === 'enable'
      ? { disabled: wanted === 'disable' }
      : { role: wanted as 'admin' | 'viewer' };
  return change(async () => {
    const operator = await (await adminClient()).changeOperator(
      textOf(form, 'operatorId') ?? '',
      body,
      { csrfToken: csrfOf(form) },
    );
    return {
      ok: `${operator.email} is ${operator.disabledAt === null ? 'enabled' : 'disabled'}, ${operator.role}.`,
    };
  });
}

export async function signOutOperatorAction(
  _previous: FormState,
  form: FormData,
): Promise<FormState> {
  return change(async () => {
    const operator = await (await adminClient()).signOutOperator(textOf(form, 'operatorId') ?? '', {
      csrfToken: csrfOf(form),
    });
    return { ok: `Every session of ${operator.email} has ended.` };
  });
}

export async function resetOperatorPasswordAction(
  _previous: FormState,
  form: FormData,
): Promise<FormState> {
  return change(async () => {
    const operator = await (await adminClient()).resetOperatorPassword(
      textOf(form, 'operatorId') ?? '',
      { csrfToken: csrfOf(form) },
    );
    return {
      ok: `New password of ${operator.email}, shown once; their sessions have ended.`,
      secret: operator.password ?? '',
    };
  });
}
