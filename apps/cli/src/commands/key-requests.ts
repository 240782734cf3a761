import { parseArgs } from 'node:util';
import {
  audited,
  createPrismaClient,
  databaseNameOf,
  databaseUrlFromEnv,
  decideKeyRequest,
  listKeyRequests,
  serverAddressOf,
} from '@hallmark/db';
import { createMailer, keyRequestDecisionMessage } from '@hallmark/runtime/mail';
import { byCli } from '../cli-audit.ts';
import { type Command, UsageError } from '../io.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Answers requests for API keys on the database, until the admin console does it: lists the
 * pending ones (oldest first, overdue marked), approves (the requester collects the key once at
 * their status link) or rejects with a reason, and tells the requester by mail.
 */
export const keyRequests: Command = async (args, io) => {
  const [action, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      all: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      reason: { type: 'string' },
    },
  });
  const databaseUrl = databaseUrlFromEnv(io.env);
  io.stderr(`database ${databaseNameOf(databaseUrl)} on ${serverAddressOf(databaseUrl)}\n`);
  const prisma = createPrismaClient(databaseUrl);
  try {
    if (action === 'list') {
      const rows = await listKeyRequests(prisma, values.all ? undefined : 'pending');
      const now = Date.now();
      const view = rows.map((row) => ({
        id: row.id,
        status: row.status,
        companyName: row.companyName,
        contact: `${row.contactName} <${row.contactEmail}>`,
        dueAt: row.dueAt.toISOString(),
        overdue: row.status === 'pending' && row.dueAt.getTime() < now,
        purpose: row.purpose,
      }));
      if (values.json) {
        io.stdout(`${JSON.stringify(view, null, 2)}\n`);
      } else {
        for (const row of view) {
          const due = row.overdue ? `OVERDUE since ${row.dueAt}` : `due ${row.dueAt}`;
          io.stdout(
            `${row.id}  ${row.status.padEnd(8)}  ${due}  ${row.companyName}  ${row.contact}\n`,
          );
        }
      }
      return 0;
    }
    if (action !== 'approve' && action !== 'reject') {
      throw new UsageError(`unknown action "${action ?? ''}"`);
    }
    const id = positionals[0];
    if (id === undefined || !UUID.test(id))
      throw new UsageError('the request id (a UUID) is required');
    const reason = values.reason?.trim();
    if (action === 'reject' && !reason) throw new UsageError('--reason is required to reject');
    const who = byCli(io);
    const by = who.actor;
    const decided = await audited(
      prisma,
      (tx) =>
        decideKeyRequest(
          tx,
          id,
          action === 'approve'
            ? { approve: true, by }
            : { approve: false, reason: reason ?? '', by },
        ),
      (done) =>
        done === null
          ? null
          : {
              ...who,
              action: action === 'approve' ? 'key_request.approve' : 'key_request.reject',
              target: `key_request:${id}`,
              details:
                action === 'approve'
                  ? { company: done.companyName }
                  : { company: done.companyName, reason },
            },
    );
    if (decided === null) {
      io.stderr(`No pending key request ${id}.\n`);
      return 1;
    }
    const mailer = createMailer(
      {
        SMTP_URL: io.env.SMTP_URL || undefined,
        MAIL_FROM: io.env.MAIL_FROM || 'Hallmark <hallmark@localhost>',
        HALLMARK_DATA_DIR: io.env.HALLMARK_DATA_DIR || '.data',
      },
      { info: (_fields, message) => io.stderr(`${message}\n`) },
    );
    await mailer.send(keyRequestDecisionMessage(decided));
    io.stdout(
      `${action === 'approve' ? 'Approved' : 'Rejected'} ${id} (${decided.companyName}).\n`,
    );
    return 0;
  } finally {
    await prisma.$disconnect();
  }
};
