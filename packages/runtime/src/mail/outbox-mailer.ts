import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
/** Where the outbox says what it wrote: any logger with pino's `info`. */
export type MailLog = { info(fields: object, message: string): void };

import type { Mailer, MailMessage } from './mailer.ts';

/** A header's value on one line, whatever it holds: a line break would start a header of its own. */
function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, ' ');
}

/**
 * UTF-8 bytes per encoded word: 39 bytes are 52 base64 characters, a 64-character word, so that
 * `Subject: ` and a word stay within RFC 5322's 78 characters a line.
 */
const WORD_BYTES = 39;

/**
 * Unstructured header text (a subject) as RFC 5322 and RFC 2047 allow it: on one line, and
 * non-ASCII text as encoded words of whole characters, folded onto continuation lines.
 */
export function unstructuredHeader(value: string): string {
  const text = oneLine(value);
  if (/^[\x20-\x7e]*$/.test(text)) return text;
  const words: string[] = [];
  let chunk = '';
  for (const character of text) {
    if (Buffer.byteLength(chunk + character, 'utf8') > WORD_BYTES) {
      words.push(chunk);
      chunk = '';
    }
    chunk += character;
  }
  if (chunk !== '') words.push(chunk);
  return words
    .map((word) => `=?UTF-8?B?${Buffer.from(word, 'utf8').toString('base64')}?=`)
    .join('\r\n ');
}

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
      `From: ${oneLine(this.from)}`,
      `To: ${oneLine(message.to)}`,
      `Subject: ${unstructuredHeader(message.subject)}`,
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
