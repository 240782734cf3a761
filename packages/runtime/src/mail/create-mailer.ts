import { resolve } from 'node:path';

import type { HallmarkConfig } from '@hallmark/config';
import type { Mailer } from './mailer.ts';
import { type MailLog, OutboxMailer } from './outbox-mailer.ts';
import { SmtpMailer } from './smtp-mailer.ts';

/** SMTP when SMTP_URL is set, else the outbox folder under the data folder. */
export function createMailer(
  config: Pick<HallmarkConfig, 'SMTP_URL' | 'MAIL_FROM' | 'HALLMARK_DATA_DIR'>,
  logger: MailLog,
): Mailer {
  return config.SMTP_URL === undefined
    ? new OutboxMailer(resolve(config.HALLMARK_DATA_DIR, 'outbox'), config.MAIL_FROM, logger)
    : new SmtpMailer(config.SMTP_URL, config.MAIL_FROM);
}
