/** One message: plain text, to one address. */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

/**
 * How Hallmark sends mail (key requests and their answers). Two drivers: SMTP (SMTP_URL) and, by
 * default, an outbox folder that keeps every message as a file and says so in the log, so that
 * nothing is lost on a machine without a mail server.
 */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
