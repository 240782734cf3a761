import type { MailMessage } from './mailer.ts';

/** What the requester of a key is told when the request is decided (console or CLI alike). */
export function keyRequestDecisionMessage(request: {
  readonly contactEmail: string;
  readonly status: 'pending' | 'approved' | 'rejected';
  readonly reason: string | null;
}): MailMessage {
  const approved = request.status === 'approved';
  return {
    to: request.contactEmail,
    subject: approved ? 'Your Hallmark API key is ready' : 'Your request for a Hallmark API key',
    // Only the operators' words: the contact address is whatever the requester typed, and a
    // rejected request (spam among them) must not carry the requester's text to a stranger.
    text: approved
      ? 'Hello,\n\nthe request for a Hallmark API key that gave this address as its contact was approved. Open your status link to see the key: it is shown there once.'
      : `Hello,\n\nthe request for a Hallmark API key that gave this address as its contact was not approved: ${request.reason ?? ''}`,
  };
}
