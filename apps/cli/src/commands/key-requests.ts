import { parseArgs } from 'node:util';
import { secretSealer } from '@hallmark/config';
import {
  audited,
  createPrismaClient,
  databaseNameOf,
  databaseUrlFromEnv,
  decideKeyRequest,
  listKeyRequests,
  serverAddressOf,
} from '@hallmark/db';
import {
  createMailer,
  keyRequestAddresses,
  keyRequestDecisionMessage,
  keyRequestMailLink,
} from '@hallmark/runtime/mail';
import { loadServiceKeys } from '@hallmark/service-keys';
import { byCli } from '../cli-audit.ts';
import { publicAddressSettings } from '../environment.ts';
import { type Command, UsageError } from '../io.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Answers requests for API keys on the database, until the admin console does it: lists the
 * pending ones (oldest first, overdue marked), approves (the key is made at once, sealed under
 * the service secret until the requester collects it at their status link) or rejects with a
 * reason, and tells the requester by mail, the approval with the status link.
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
    const dataDir = io.env.HALLMARK_DATA_DIR || '.data';
    // The service's own secret (HALLMARK_SECRET, else the one generated in the data folder): what
    // the CLI seals here, the API opens when the key is collected.
    const keys = await loadServiceKeys({
      HALLMARK_SECRET: io.env.HALLMARK_SECRET || undefined,
      HALLMARK_DATA_DIR: dataDir,
    });
    const sealer = secretSealer(keys.secretSealing);
    const decided = await audited(
      prisma,
      (tx) =>
        decideKeyRequest(
          tx,
          id,
          action === 'approve'
            ? { approve: true, by, sealer }
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
                  ? { company: done.companyName, apiKey: done.apiKeyPrefix }
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
        HALLMARK_DATA_DIR: dataDir,
      },
      { info: (_fields, message) => io.stderr(`${message}\n`) },
    );
    let statusLink: string | undefined;
    if (decided.status === 'approved' && decided.sealedToken !== null) {
      try {
        const token = sealer.open(decided.sealedToken);
        statusLink = keyRequestMailLink(
          keyRequestAddresses(publicAddressSettings(io.env)),
          decided.id,
          token,
        );
      } catch {
        // Sealed by a service with another secret: so is the key just made, which that service
        // cannot open either.
        io.stderr(
          'The request was sealed under another HALLMARK_SECRET than this one: run this where the service runs, or re-issue the key in the console.\n',
        );
      }
    }
    await mailer.send(keyRequestDecisionMessage(decided, statusLink));
    io.stdout(
      action === 'approve'
        ? `Approved ${id} (${decided.companyName}): key ${decided.apiKeyPrefix}… waits for its requester.\n`
        : `Rejected ${id} (${decided.companyName}).\n`,
    );
    return 0;
  } finally {
    await prisma.$disconnect();
  }
};
