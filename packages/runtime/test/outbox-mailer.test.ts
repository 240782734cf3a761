import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OutboxMailer } from '../src/mail/index.ts';

const silent = { info() {} };

describe('the outbox mailer', () => {
  let folder: string | undefined;
  afterEach(async () => {
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  async function written(subject: string): Promise<{ headers: string[]; body: string }> {
    folder = await mkdtemp(join(tmpdir(), 'outbox-'));
    await new OutboxMailer(folder, 'Hallmark <noreply@hallmark.example>', silent).send({
      to: 'ada@acme.example',
      subject,
      text: 'Hello',
    });
    const [name] = await readdir(folder);
    const eml = await readFile(join(folder, name as string), 'utf8');
    const [head = '', body = ''] = eml.split('\r\n\r\n');
    return { headers: head.split('\r\n'), body };
  }

  it('a line break in a subject cannot add a header', async () => {
    const { headers, body } = await written('Key request from Acme\r\nBcc: eve@evil.example\nX: y');
    expect(headers.filter((line) => /^bcc:/i.test(line))).toEqual([]);
    expect(headers.filter((line) => line.startsWith('Subject:'))).toEqual([
      'Subject: Key request from Acme Bcc: eve@evil.example X: y',
    ]);
    expect(body).toBe('Hello');
  });

  it('a non-ASCII subject is written as RFC 2047 encoded words, folded, and decodes back', async () => {
    const subject = `Key request from Zoë's Café ${'€'.repeat(30)} (due Friday)`;
    const { headers } = await written(subject);
    const start = headers.findIndex((line) => line.startsWith('Subject: '));
    const lines = [headers[start] as string];
    for (let k = start + 1; (headers[k] ?? '').startsWith(' '); k++)
      lines.push(headers[k] as string);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(78);
    const decoded = lines
      .map((line) => line.replace(/^Subject: /, '').trim())
      .map((word) => /^=\?UTF-8\?B\?([A-Za-z0-9+/=]+)\?=$/.exec(word)?.[1] ?? '')
      .map((base64) => Buffer.from(base64, 'base64').toString('utf8'))
      .join('');
    expect(decoded).toBe(subject);
  });
});
