import { type HallmarkConfig, publicBaseUrl } from '@hallmark/config';
import type { MailMessage } from './mailer.ts';

/** Where a request's private status link points: the API, and the console when it has an address. */
export interface KeyRequestAddresses {
  /** The API's public address (PUBLIC_URL). */
  readonly api: string;
  /** The console's public address (ADMIN_PUBLIC_URL), if set. */
  readonly console: string | undefined;
}

/** The addresses of a deployment's settings, as the service computes them. */
export function keyRequestAddresses(
  config: Pick<HallmarkConfig, 'PUBLIC_URL' | 'HOST' | 'PORT' | 'ADMIN_PUBLIC_URL'>,
): KeyRequestAddresses {
  return { api: publicBaseUrl(config), console: config.ADMIN_PUBLIC_URL };
}

/** The status link for programs (the API) and, with a console, the page for people. */
export function keyRequestLinks(
  addresses: KeyRequestAddresses,
  id: string,
  token: string,
): { readonly statusUrl: string; readonly statusPage?: string } {
  const api = addresses.api.replace(/\/+$/, '');
  const console = addresses.console?.replace(/\/+$/, '');
  return {
    statusUrl: `${api}/key-requests/${id}?token=${token}`,
    ...(console === undefined ? {} : { statusPage: `${console}/request-key/${id}?token=${token}` }),
  };
}

/** The link a person is sent: the console's page when there is one, else the API's link. */
export function keyRequestMailLink(addresses: KeyRequestAddresses, id: string, token: string) {
  const links = keyRequestLinks(addresses, id, token);
  return links.statusPage ?? links.statusUrl;
}

/**
 * What the requester of a key is told when the request is decided (console or CLI alike). An
 * approval repeats the status link (`statusLink`, unless the request predates keeping it): the
 * key waits there, and opening the link does not use it up.
 */
export function keyRequestDecisionMessage(
  request: {
    readonly contactEmail: string;
    readonly status: 'pending' | 'approved' | 'rejected';
    readonly reason: string | null;
  },
  statusLink: string | undefined,
): MailMessage {
  const approved = request.status === 'approved';
  return {
    to: request.contactEmail,
    subject: approved ? 'Your Hallmark API key is ready' : 'Your request for a Hallmark API key',
    // Only the operators' words: the contact address is whatever the requester typed, and a
    // rejected request (spam among them) must not carry the requester's text to a stranger.
    text: approved
      ? [
          'Hello,',
          '',
          'the request for a Hallmark API key that gave this address as its contact was approved.',
          statusLink === undefined
            ? 'Open the status link you were sent with the request to collect the key.'
            : `Collect the key here (keep this link private): ${statusLink}`,
          'Opening the page does not use the key up: it is shown once, when you press "Show my key".',
        ].join('\n')
      : `Hello,\n\nthe request for a Hallmark API key that gave this address as its contact was not approved: ${request.reason ?? ''}`,
  };
}
