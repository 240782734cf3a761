import { z } from 'zod';
import { HttpUrl } from './common/http-url.ts';
import { multiLineText, singleLineText } from './common/plain-text.ts';
import { UnixSeconds } from './common/unix-seconds.ts';

/**
 * `POST /key-requests`: what a company tells the operators when it asks for an API key (company
 * name, purpose, contact details). `fax` is a honeypot: people never see it (the console
 * hides it), bots fill every field; a request that fills it is answered like any other and
 * dropped.
 */
export const KeyRequestCreate = z
  .strictObject({
    companyName: singleLineText(200),
    purpose: multiLineText(2000).meta({ description: 'What the key will be used for.' }),
    contactName: singleLineText(200),
    contactEmail: z.email().max(320),
    website: HttpUrl.optional(),
    expectedVolume: singleLineText(200)
      .optional()
      .meta({ description: 'Images a month, roughly, e.g. "about 5,000".' }),
    fax: z.string().max(200).optional().meta({
      description: 'Leave empty: a field for bots (a request that fills it is dropped).',
    }),
  })
  .meta({ id: 'KeyRequestCreate', description: 'A request for an API key.' });
export type KeyRequestCreate = z.infer<typeof KeyRequestCreate>;

export const KeyRequestAccepted = z
  .strictObject({
    status: z.literal('pending'),
    requestId: z.uuid(),
    statusUrl: HttpUrl.meta({
      description:
        'The private link to this request: its state, and the key once approved (collected with a POST, shown once). Keep it; the mails to the contact carry it too.',
    }),
    statusPage: HttpUrl.optional().meta({
      description:
        'The same request as a page for people, in the admin console (when the deployment sets ADMIN_PUBLIC_URL); the mail links it.',
    }),
    dueAt: UnixSeconds.meta({
      description: 'When an answer is due: two business days after the request (weekends skipped).',
    }),
  })
  .meta({ id: 'KeyRequestAccepted', description: 'The request was received.' });
export type KeyRequestAccepted = z.infer<typeof KeyRequestAccepted>;

export const KeyRequestState = z.enum(['pending', 'approved', 'rejected']);
export type KeyRequestState = z.infer<typeof KeyRequestState>;

/** The token of a request's private status link: 32 random bytes, base64url. */
export const KeyRequestTokenQuery = z.object({
  token: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'Expected the token of the status link')
    .meta({ description: 'The token of the status link.' }),
});

export const KeyRequestStatus = z
  .strictObject({
    requestId: z.uuid(),
    status: KeyRequestState,
    companyName: z.string(),
    submittedAt: UnixSeconds,
    dueAt: UnixSeconds,
    decidedAt: UnixSeconds.optional(),
    reason: z.string().optional().meta({ description: 'Why it was rejected.' }),
    keyReady: z.boolean().optional().meta({
      description:
        'Approved and not yet collected: the key was made on approval and waits for `POST /key-requests/{requestId}/key`, which shows it, once.',
    }),
    apiKeyPrefix: z
      .string()
      .optional()
      .meta({ description: "The approved request's key: its prefix, safe to display." }),
  })
  .meta({ id: 'KeyRequestStatus', description: 'The state of a request for an API key.' });
export type KeyRequestStatus = z.infer<typeof KeyRequestStatus>;

export const KeyRequestKey = z
  .strictObject({
    apiKey: z.string().meta({
      description:
        'The API key, shown by this call only: its sealed copy is erased now, and only its SHA-256 is kept.',
    }),
    apiKeyPrefix: z.string().meta({ description: 'Its prefix, safe to display.' }),
    apiUrl: HttpUrl.meta({
      description: "The API's address (the deployment's `PUBLIC_URL`): where to send the key.",
    }),
  })
  .meta({ id: 'KeyRequestKey', description: 'The key of an approved request, collected.' });
export type KeyRequestKey = z.infer<typeof KeyRequestKey>;
