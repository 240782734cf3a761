// The mail interface alone (`@hallmark/runtime/mail`): the CLI sends the key requests' answers
// without loading the rest of the platform.
export { createMailer } from './create-mailer.ts';
export {
  type KeyRequestAddresses,
  keyRequestAddresses,
  keyRequestDecisionMessage,
  keyRequestLinks,
  keyRequestMailLink,
} from './key-request-messages.ts';
export type { Mailer, MailMessage } from './mailer.ts';
export { OutboxMailer } from './outbox-mailer.ts';
