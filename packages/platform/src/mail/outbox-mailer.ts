import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
/** Where the outbox says what it wrote: any logger with pino's `info`. */
export type MailLog = { info(fields: object, message: string): void };

import type { Mailer, MailMessage } from './mailer.ts';

/** Writes each message as an RFC 5322 `.eml` file in `folder` and logs where. */
export class OutboxMailer implements Mailer {
  constructor(
    private readonly folder: string,
    private readonly from: string,
    private readonly logger: MailLog,
  ) {}

  async send(message: MailMessage): Promise<void> {
    await mkdir(this.folder, { recursive: true });
    const now = new Date();
    const name = `${now.toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
    const path = join(this.folder, name);
    const eml = [
      `From: ${this.from}`,
      `To: ${message.to}`,
      `Subject: ${message.subject}`,
      `Date: ${now.toUTCString()}`,
      'Content-Type: text/plain; charset=utf-8',
      '',
      message.text,
    ].join('\r\n');
    await writeFile(path, eml);
    this.logger.info(
      { to: message.to, subject: message.subject, path },
      'mail written to the outbox',
    );
  }
}
