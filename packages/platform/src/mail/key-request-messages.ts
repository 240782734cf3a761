import type { MailMessage } from './mailer.ts';

/** What the requester of a key is told when the request is decided (console or CLI alike). */
export function keyRequestDecisionMessage(request: {
  readonly contactEmail: string;
  readonly contactName: string;
  readonly companyName: string;
  readonly status: 'pending' | 'approved' | 'rejected';
  readonly reason: string | null;
}): MailMessage {
  const approved = request.status === 'approved';
  return {
    to: request.contactEmail,
    subject: approved ? 'Your Hallmark API key is ready' : 'Your request for a Hallmark API key',
    text: approved
      ? `Hello ${request.contactName},\n\nthe request of ${request.companyName} was approved. Open your status link to see the key: it is shown there once.`
      : `Hello ${request.contactName},\n\nthe request of ${request.companyName} was not approved: ${request.reason ?? ''}`,
  };
}
